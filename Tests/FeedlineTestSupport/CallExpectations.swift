@_spi(FeedService) import Feedline
import Foundation
import Testing

/// What a `FeedService` double was told to expect, and where: any other call fails the test
/// with an `Issue` naming the call, pointing at the line that made the double, and fails the
/// call itself with ``UnexpectedCall`` — at once, never left waiting.
public struct CallExpectations: Sendable {
    /// The double's name in messages, e.g. `ModelServer`.
    public let double: String
    public let expected: FeedCalls
    /// Where the test made the double.
    public let sourceLocation: SourceLocation

    public init(_ double: String, expecting expected: FeedCalls, sourceLocation: SourceLocation) {
        self.double = double
        self.expected = expected
        self.sourceLocation = sourceLocation
    }

    /// Returns when `kind` is expected; otherwise fails the test and throws (``unexpected(_:)``).
    package func check(_ kind: FeedCalls, _ call: @autoclosure () -> String) throws(UnexpectedCall) {
        guard !expected.isSuperset(of: kind) else { return }
        throw unexpected(call())
    }

    /// Fails the test with an `Issue` naming `call`, and returns the error the call fails with:
    /// for a call the double does not serve at all.
    package func unexpected(_ call: String) -> UnexpectedCall {
        let unexpected = UnexpectedCall(double: double, call: call, expected: expected)
        Issue.record(Comment(rawValue: unexpected.message), sourceLocation: sourceLocation)
        return unexpected
    }
}

/// A call a double was not told to expect: a refusal, so nothing tries it again.
package struct UnexpectedCall: FeedServiceError, Hashable {
    package var double: String
    package var call: String
    package var expected: FeedCalls

    package init(double: String, call: String, expected: FeedCalls) {
        self.double = double
        self.call = call
        self.expected = expected
    }

    package var isTransient: Bool { false }
    package var errorDescription: String? { message }

    /// e.g. `ModelServer got post(p1), which the test did not expect (it expects [pages, interactions])`.
    package var message: String {
        "\(double) got \(call), which the test did not expect (it expects \(expected))"
    }
}
