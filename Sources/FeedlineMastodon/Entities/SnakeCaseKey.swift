/// A coding key whose JSON name is its case name in snake_case, as Mastodon spells its fields:
/// an entity names each field once (`case displayName, inReplyToID`), and `display_name`,
/// `in_reply_to_id` are what decoding reads, encoding writes and a ``Mastodon/DecodingFailure``
/// path says.
///
/// The rule: a capital that follows a lower-case letter or a digit starts a word, and every
/// capital is lower-cased, so an acronym stays one word (`previewURL` → `preview_url`,
/// `sampleAccountIDs` → `sample_account_ids`). A raw value already in snake_case is its own
/// name, so a field whose JSON name the rule does not make keeps it as its raw value.
protocol SnakeCaseKey: CodingKey, CaseIterable, RawRepresentable<String> {}

extension SnakeCaseKey {
    /// The raw value in snake_case (see the type).
    var stringValue: String { Self.snakeCase(rawValue) }

    /// The key whose ``stringValue`` is `stringValue`.
    init?(stringValue: String) {
        guard let key = Self.allCases.first(where: { $0.stringValue == stringValue }) else { return nil }
        self = key
    }

    /// `name` in snake_case, by the rule the type states; `name` itself when it has no capital
    /// (most keys: no copy is made).
    static func snakeCase(_ name: String) -> String {
        let utf8 = name.utf8
        var capitals = 0
        for byte in utf8 where isCapital(byte) { capitals += 1 }
        guard capitals > 0 else { return name }
        return String(unsafeUninitializedCapacity: utf8.count + capitals) { buffer in
            var count = 0
            var wordGoesOn = false
            for byte in utf8 {
                if isCapital(byte) {
                    if wordGoesOn {
                        buffer[count] = UInt8(ascii: "_")
                        count += 1
                    }
                    buffer[count] = byte | 0x20
                    wordGoesOn = false
                } else {
                    buffer[count] = byte
                    wordGoesOn = byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                }
                count += 1
            }
            return count
        }
    }

    private static func isCapital(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
}
