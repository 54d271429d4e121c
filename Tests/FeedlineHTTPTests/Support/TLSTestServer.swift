import Feedline
import FeedlineTestSupport
import FeedlineREPL
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A tiny HTTPS server on 127.0.0.1 (SwiftNIO and swift-nio-ssl, which AsyncHTTPClient brings
/// anyway) with a certificate made for the test by the `openssl` command: self-signed, so no
/// client that checks certificates against the system's store trusts it. Every request it
/// reads is answered `200` with `[]`; it counts them.
final class TLSTestServer: Sendable {
    /// The certificate (PEM) and its key, in a scratch directory.
    struct Identity {
        let certificate: URL
        let key: URL

        /// A fresh self-signed certificate for 127.0.0.1 (`openssl req -x509`).
        static func make(in scratch: Scratch) throws -> Identity {
            let identity = Identity(certificate: scratch.file("cert.pem"), key: scratch.file("key.pem"))
            let nothing = FileHandle(forUpdatingAtPath: "/dev/null")
            let descriptor = nothing?.fileDescriptor ?? 0
            let openssl = try ChildProcess.tool([
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2",
                "-keyout", identity.key.path, "-out", identity.certificate.path,
            ], standardInput: descriptor, standardOutput: descriptor, standardError: descriptor)
            try? nothing?.close()
            let ending = openssl.waitUntilExit(timeout: 600)
            guard let ending, ending.status == 0, !ending.signalled else { throw CocoaError(.fileWriteUnknown) }
            return identity
        }
    }

    /// How many requests were answered, shared with the connections' handlers.
    final class Counter: Sendable {
        let count = Locked(0)
    }

    private let channel: any Channel
    private let answered: Counter
    let port: Int

    private init(channel: any Channel, answered: Counter) {
        self.channel = channel
        self.answered = answered
        port = channel.localAddress?.port ?? 0
    }

    /// Requests answered so far (a TLS handshake that failed reads none).
    var requests: Int { answered.count.withLock { $0 } }

    var baseURL: String { "https://127.0.0.1:\(port)" }

    static func start(_ identity: Identity) async throws -> TLSTestServer {
        let chain = try NIOSSLCertificate.fromPEMFile(identity.certificate.path).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: identity.key.path, format: .pem)
        let context = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        let answered = Counter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Answer(answered: answered))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TLSTestServer(channel: channel, answered: answered)
    }

    func stop() async {
        try? await channel.close()
    }

    /// Answers each request `200 []`.
    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let answered: Counter

        init(answered: Counter) {
            self.answered = answered
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            answered.count.withLock { $0 += 1 }
            let body = context.channel.allocator.buffer(string: "[]")
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
