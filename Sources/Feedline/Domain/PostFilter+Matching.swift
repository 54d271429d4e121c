import Foundation

extension PostFilter {
    /// Whether one of its keywords is in `post`'s shown content (the original, for a boost) as
    /// Mastodon matches them: in the content warning, the text, the media descriptions and the
    /// poll's options, without regard to case; a whole-word keyword only where it is not part of
    /// a longer word (no letter, digit or `_` right before a keyword that starts with one, nor
    /// right after one that ends with one). A filter without keywords matches nothing here (the
    /// posts it lists by id are the server's to mark).
    ///
    /// An expired filter (`expiresAt` not after `now`) matches nothing.
    ///
    /// - Complexity: O(k × n) for k keywords and n characters of content.
    package func matches(_ post: Post, at now: Date) -> Bool {
        guard !keywords.isEmpty else { return false }
        if let expiresAt, expiresAt <= now { return false }
        let content = post.content
        var texts = [content.text]
        if let warning = content.contentWarning { texts.append(warning) }
        texts += content.media.compactMap(\.description)
        texts += content.poll?.options.map(\.title) ?? []
        let folded = texts.map { $0.lowercased() }
        return keywords.contains { keyword in folded.contains { Self.text($0, contains: keyword) } }
    }

    /// Whether `text` (lower-cased) holds `keyword` as it matches.
    static func text(_ text: String, contains keyword: Keyword) -> Bool {
        let word = keyword.keyword.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !word.isEmpty else { return false }
        guard keyword.wholeWord else { return text.contains(word) }
        let startsWithWord = word.first.map(isWordCharacter) ?? false
        let endsWithWord = word.last.map(isWordCharacter) ?? false
        var searchStart = text.startIndex
        while let found = text.range(of: word, range: searchStart..<text.endIndex) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            let openStart = !startsWithWord || before.map { !isWordCharacter($0) } ?? true
            let openEnd = !endsWithWord || after.map { !isWordCharacter($0) } ?? true
            if openStart && openEnd { return true }
            searchStart = text.index(after: found.lowerBound)
        }
        return false
    }

    /// A character of a word, as `[[:word:]]`: a letter, a digit or `_`.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
