/// Input quoted back in a message ("Unknown command "fva"…"): every front echoes what it was
/// sent when it refuses it, and none should print a megabyte of it, nor a control character
/// that a terminal would act on.
package enum Echo {
    /// `text` cut after `limit` characters (then `…`), each character holding a control
    /// character shown as `?`.
    ///
    /// - Complexity: O(`limit`): only the first `limit + 1` characters are looked at.
    package static func shortened(_ text: String, to limit: Int) -> String {
        var result = ""
        for (count, character) in text.enumerated() {
            if count == max(0, limit) {
                result += "…"
                break
            }
            result.append(character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "?" : character)
        }
        return result
    }
}
