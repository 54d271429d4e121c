import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

extension HTTPTransportError {
    /// What AsyncHTTPClient, SwiftNIO or swift-nio-ssl threw, in Feedline's terms; the library's
    /// own words are kept as ``detail``.
    init(library error: any Error) {
        if let error = error as? HTTPTransportError {
            self = error
            return
        }
        self.init(Self.code(of: error), detail: String(describing: error))
    }

    private static func code(of error: any Error) -> Code {
        switch error {
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            return code(of: error)
        case let error as NIOConnectionError:
            // Every address failed to connect, or none was found.
            guard let first = error.connectionErrors.first else { return .cannotFindHost }
            return code(of: first.error)
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ENETUNREACH, ENETDOWN, EHOSTUNREACH: return .networkUnreachable
            case ETIMEDOUT: return .idleTimeout
            case ECONNRESET, EPIPE: return .connectionLost
            default: return .cannotConnect
            }
        case is SocketAddressError:
            return .cannotFindHost
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .idleTimeout
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed: return .connectionLost
            default: return .other
            }
        case let error as HTTPParserError:
            switch error {
            case .headerOverflow: return .headerTooLarge
            case .invalidEOFState: return .connectionLost
            default: return .badResponse
            }
        case let error as NIOSSLError:
            switch error {
            case .uncleanShutdown: return .connectionLost
            case .handshakeFailed(let reason):
                // BoringSSL names a refused certificate CERTIFICATE_VERIFY_FAILED.
                return String(describing: reason).contains("CERTIFICATE_VERIFY_FAILED") ? .certificateUntrusted : .tlsFailed
            default: return .tlsFailed
            }
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .certificateUntrusted
        case is NIOSSLExtraError:
            return .tlsFailed
        default:
            return .other
        }
    }

    private static func code(of error: HTTPClientError) -> Code {
        switch error {
        case .cancelled: .cancelled
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout, .readTimeout, .writeTimeout: .idleTimeout
        case .deadlineExceeded: .totalTimeout
        case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown: .connectionLost
        case .invalidURL, .emptyHost, .emptyScheme: .unsupportedAddress
        case .redirectCycleDetected: .redirectLoop
        case .redirectLimitReached: .tooManyRedirects
        default: .other
        }
    }
}
