import Feedline

/// How long a request may wait for the server's answer, as a person sets it: the
/// `FEEDLINE_TIMEOUT` environment variable, in seconds (a slow server, a slow connection), or
/// ``MastodonHTTPService/defaultTimeout`` without it. Sessions, `feedline login` and `logout`
/// read it alike.
public enum RequestTimeout {
    /// The variable's name.
    public static let environmentVariable = "FEEDLINE_TIMEOUT"
    /// The longest it may be: an hour.
    public static let longest: Duration = .seconds(3600)

    /// A value that is not a number of seconds from 1 to 3600, with the sentence why.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        /// The sentence (it quotes the value, which is the person's own and carries no secret).
        public let description: String
    }

    /// The timeout `environment` sets, or the default.
    ///
    /// - Throws: ``Invalid`` for a value that is not a whole or decimal number of seconds from
    ///   1 to 3600.
    public static func resolve(environment: [String: String]) throws(Invalid) -> Duration {
        guard let text = environment[environmentVariable] else { return MastodonHTTPService.defaultTimeout }
        let trimmed = text.trimmingBlanks(newlines: true)
        guard let seconds = Double(trimmed), seconds.isFinite, seconds >= 1, seconds <= 3600,
              trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else {
            let shown = String(trimmed.unicodeScalars.filter { $0.isASCII && !$0.properties.isDefaultIgnorableCodePoint && $0.value >= 0x20 && $0.value != 0x7F }.prefix(40))
            throw Invalid(description: "\(environmentVariable) is \"\(shown)\": it must be a number of seconds from 1 to 3600, such as 30.")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
