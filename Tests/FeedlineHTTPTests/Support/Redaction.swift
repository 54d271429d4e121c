import Feedline
import Foundation
import Testing

/// Every way a front or log could print `value`: description, debug description, localized
/// description, the view models' message, and `dump`.
func renderings(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var texts = [String(describing: value), String(reflecting: value), dumped]
    if let error = value as? any Error {
        texts += [error.localizedDescription, FeedFailure(error).message]
    }
    return texts
}

/// Fails when the token appears in any rendering of `value`.
func expectNoToken(_ value: Any, token: String = secretToken, sourceLocation: SourceLocation = #_sourceLocation) {
    for text in renderings(of: value) {
        #expect(!text.contains(token), "the token shows in: \(text.replacingOccurrences(of: token, with: "<TOKEN>"))", sourceLocation: sourceLocation)
    }
}

/// The error `body` throws, or a recorded issue when it throws none.
func thrownError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
