import Feedline

/// The web links of the HTML that Mastodon-compatible servers put in `content`.
public enum HTMLLinks {
    /// The most links kept of one post (a post of a thousand links keeps the first ones).
    public static let limit = 20
    /// The `href` of every `<a>` element of `html`, in order, each once: only `http` and
    /// `https` addresses with no space or control character in them (entities decoded first,
    /// ``Feedline/PostLink/checked(_:)``), at most ``limit`` of them. Mentions and hashtags (anchors
    /// whose `class` names `mention` or `hashtag`) are not links a reader follows: left out.
    ///
    /// - Complexity: O(n) in the UTF-8 length of `html`: each byte is looked at a bounded number
    ///   of times, whatever the markup.
    public static func links(in html: String) -> [String] {
        let bytes = Array(html.utf8)
        var links: [String] = []
        var seen: Set<String> = []
        var index = 0
        while index < bytes.count, links.count < limit {
            guard bytes[index] == UInt8(ascii: "<"), index + 2 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "a"),
                isSpace(bytes[index + 2])
            else {
                index += 1
                continue
            }
            let (attributes, end) = self.attributes(bytes, from: index + 2)
            index = end
            guard let href = attributes["href"] else { continue }
            let classes = (attributes["class"] ?? "").lowercased().split(separator: " ")
            if classes.contains("mention") || classes.contains("hashtag") { continue }
            guard let link = address(href), seen.insert(link).inserted else { continue }
            links.append(link)
        }
        return links
    }

    /// The attributes of the tag whose name ends before `start` (lower-cased names; the first of
    /// a name wins) and the index after its `>` (the end of the input when it has none).
    private static func attributes(_ bytes: [UInt8], from start: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var index = start
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">") else { return (attributes, min(bytes.count, index + 1)) }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    index += 1
                    let valueStart = index
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    if index < bytes.count { index += 1 }
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = value }
        }
        return (attributes, index)
    }

    /// `href` with its entities decoded, when it is an address a browser can be given safely
    /// (``Feedline/PostLink/checked(_:)``).
    static func address(_ href: String) -> String? {
        PostLink.checked(HTMLText.plainText(from: href))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0x0C
    }
}
