import Feedline
@testable import FeedlineMastodon
import Foundation
import Testing

/// Which failures the outbox keeps (transient: the request may succeed later, so the favourite,
/// boost or bookmark stays pending and is sent again) and which roll back (refusals).
@Suite("Transient errors")
struct TransientErrorTests {
    @Test("no connection, a timeout, a 5xx and rate limiting are transient; 401, 403, 404, 422 and nonsense are refusals")
    func http() {
        let decoding = Mastodon.DecodingFailure(path: "id", problem: "missing")
        let table: [(MastodonHTTPError, Bool)] = [
            (.noConnection(host: "example.social", reason: "there is no network connection"), true),
            (.timedOut(seconds: 30), true),
            (.network(reason: "the connection was reset"), true),
            (.serverUnavailable(status: 503), true),
            (.serverError(status: 500, serverMessage: nil), true),
            (.rateLimited(reset: nil, secondsToReset: nil), true),
            (.timelinePreparing(.home), true),
            (.unauthorized(serverMessage: nil, sentToken: true, server: "example.social"), false),
            (.forbidden(serverMessage: nil), false),
            (.notFound(serverMessage: "Record not found"), false),
            (.unprocessable(serverMessage: "Validation failed"), false),
            (.unexpectedStatus(400, serverMessage: nil), false),
            (.unexpectedBody(what: "post 1", server: "example.social", failure: decoding), false),
            (.notMastodon(server: "example.social", what: "the home timeline", status: 200, body: "an HTML page"), false),
        ]
        for (error, transient) in table {
            #expect(error.isTransient == transient, "\(error)")
            #expect(FeedFailure(error).isTransient == transient, "\(error)")
        }
        // Transport failures: every one of them is for lack of a connection.
        let codes: [HTTPTransportError.Code] = [
            .networkUnreachable, .idleTimeout, .totalTimeout, .connectionRefused, .cannotConnect, .connectionLost, .cannotFindHost, .badResponse,
        ]
        for code in codes {
            let error = MastodonHTTPError.transport(HTTPTransportError(code), host: "example.social", limits: HTTPTransferLimits(idle: .seconds(30)))
            #expect(FeedFailure(error).isTransient, "\(code)")
        }
        // What a server does wrong for good: asking again gets the same.
        let lasting: [HTTPTransportError.Code] = [.redirectLoop, .tooManyRedirects, .headerTooLarge, .bodyTooLarge(limit: 8 << 20), .certificateUntrusted]
        for code in lasting {
            let error = MastodonHTTPError.transport(HTTPTransportError(code), host: "example.social", limits: HTTPTransferLimits(idle: .seconds(30)))
            #expect(!FeedFailure(error).isTransient, "\(code)")
        }
    }

    @Test("the sandbox's outage faults are transient, its refusals are not")
    func sandbox() {
        let table: [(SandboxScenario.Failure, Bool)] = [
            (.unavailable, true), (.timeout, true), (.rateLimited, true), (.serverError, true), (.notFound, false), (.forbidden, false),
        ]
        for (failure, transient) in table {
            #expect(FeedFailure(SandboxError.fault(failure, request: .favourite)).isTransient == transient, "\(failure)")
        }
        #expect(!FeedFailure(SandboxError.notFound("1")).isTransient)
    }
}
