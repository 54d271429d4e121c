import FeedlineMastodon
import Testing

/// `FEEDLINE_TIMEOUT`: a number of seconds from 1 to 3600, or the default; anything else is
/// one sentence that quotes the value.
@Suite("The request timeout a person sets")
struct RequestTimeoutTests {
    @Test("unset is the default; whole and decimal seconds are read", arguments: [
        ([String: String](), MastodonHTTPService.defaultTimeout),
        (["FEEDLINE_TIMEOUT": "45"], Duration.seconds(45)),
        (["FEEDLINE_TIMEOUT": " 2.5\n"], Duration.milliseconds(2500)),
        (["FEEDLINE_TIMEOUT": "1"], Duration.seconds(1)),
        (["FEEDLINE_TIMEOUT": "3600"], Duration.seconds(3600)),
    ])
    func valid(environment: [String: String], expected: Duration) throws {
        #expect(try RequestTimeout.resolve(environment: environment) == expected)
    }

    @Test("anything else is one sentence", arguments: [
        ("abc", "abc"), ("0", "0"), ("0.5", "0.5"), ("-5", "-5"), ("3601", "3601"), ("1e3", "1e3"), ("", ""), ("nan", "nan"), ("4\u{1B}[2J", "4[2J"),
    ])
    func invalid(value: String, shown: String) {
        #expect(throws: RequestTimeout.Invalid.self) { try RequestTimeout.resolve(environment: ["FEEDLINE_TIMEOUT": value]) }
        do {
            _ = try RequestTimeout.resolve(environment: ["FEEDLINE_TIMEOUT": value])
        } catch {
            #expect(error.description == "FEEDLINE_TIMEOUT is \"\(shown)\": it must be a number of seconds from 1 to 3600, such as 30.")
        }
    }
}
