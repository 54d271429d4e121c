/// An HTTP `Link` header (RFC 8288) read tolerantly: the links it holds, each with its target,
/// relation types and other parameters.
///
/// Mastodon pages its timelines with it:
/// `<https://host/api/v1/timelines/home?max_id=7>; rel="next", <https://host/…?min_id=9>; rel="prev"`.
///
/// The parser is total: it accepts any string, never traps, and keeps every well-formed link it
/// finds. It tolerates spacing anywhere the grammar allows optional whitespace (and some where it
/// does not), parameters in any order, quoted and unquoted values, several relation types in one
/// `rel` (`rel="next last"`), commas inside `<…>` targets and quoted values, parameter names in
/// any case, and empty list elements. A list element that does not start with `<` is skipped up
/// to the next comma outside quotes; a `<` without its `>` ends the header. As RFC 8288 says, a
/// `rel` after the first one of a link is ignored.
///
/// - Complexity: O(*n*) in the length of the header.
public struct LinkHeader: Hashable, Sendable {
    /// One link: `<target>; name=value; …`.
    public struct Link: Hashable, Sendable {
        /// The target as written between `<` and `>` (possibly relative; resolve it against the
        /// request's address), with surrounding spaces trimmed.
        public var target: String
        /// The relation types of the first `rel` parameter, lowercased, in order; empty without one.
        public var relations: [String]
        /// Every parameter in order, names lowercased, values unquoted (`nil` for a bare name).
        public var parameters: [Parameter]

        /// A link to `target` with these relation types and parameters.
        public init(target: String, relations: [String], parameters: [Parameter] = []) {
            self.target = target
            self.relations = relations
            self.parameters = parameters
        }
    }

    /// A link parameter: `rel="next"`, `title=x`, or a bare `crossorigin`.
    public struct Parameter: Hashable, Sendable {
        /// The name, lowercased.
        public var name: String
        /// The value with quotes and escapes removed; `nil` when the parameter had no `=`.
        public var value: String?

        /// A parameter `name` (lowercased here) with `value`.
        public init(name: String, value: String?) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// The links in the order the header lists them.
    public var links: [Link]

    /// The links of a header value (see the type's description for what is tolerated).
    public init(parsing value: String) {
        var parser = Parser(Array(value.unicodeScalars))
        links = parser.links()
    }

    /// The links of several `Link` header fields, in order (a response may send more than one).
    public init(parsing values: [String]) {
        links = values.flatMap { LinkHeader(parsing: $0).links }
    }

    /// The target of the first link with relation type `relation` (compared without case).
    public func target(for relation: String) -> String? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }?.target
    }

    /// The `rel="next"` target: on Mastodon, the older page.
    public var next: String? { target(for: "next") }

    /// The `rel="prev"` (or `rel="previous"`) target: on Mastodon, the newer page.
    public var previous: String? { target(for: "prev") ?? target(for: "previous") }
}

extension LinkHeader {
    /// A single pass over the header's scalars.
    private struct Parser {
        private let scalars: [Unicode.Scalar]
        private var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func links() -> [Link] {
            var links: [Link] = []
            while true {
                skip { $0 == "," || Self.isSpace($0) }
                guard let scalar = current else { return links }
                guard scalar == "<" else {
                    skipElement()
                    continue
                }
                index += 1
                guard let close = scalars[index...].firstIndex(of: ">") else { return links }
                let target = String(String.UnicodeScalarView(scalars[index..<close]))
                index = close + 1
                var link = Link(target: target.trimmingSpaces, relations: [])
                var sawRel = false
                parameters: while true {
                    skip(Self.isSpace)
                    switch current {
                    case ";":
                        index += 1
                        guard let parameter = parameter() else { continue parameters }
                        link.parameters.append(parameter)
                        if parameter.name == "rel", !sawRel {
                            sawRel = true
                            link.relations = Self.relationTypes(parameter.value ?? "")
                        }
                    case ",", nil:
                        break parameters
                    default:
                        // Junk after the target or a parameter: keep the link, drop the rest of the element.
                        skipElement()
                        break parameters
                    }
                }
                links.append(link)
            }
        }

        /// `name [= value]` after a `;`; `nil` when there is no name.
        private mutating func parameter() -> Parameter? {
            skip(Self.isSpace)
            let start = index
            skip { !Self.isSpace($0) && $0 != "=" && $0 != ";" && $0 != "," && $0 != "\"" }
            guard index > start else { return nil }
            let name = String(String.UnicodeScalarView(scalars[start..<index]))
            skip(Self.isSpace)
            guard current == "=" else { return Parameter(name: name, value: nil) }
            index += 1
            skip(Self.isSpace)
            if current == "\"" { return Parameter(name: name, value: quoted()) }
            let valueStart = index
            skip { !Self.isSpace($0) && $0 != ";" && $0 != "," }
            return Parameter(name: name, value: String(String.UnicodeScalarView(scalars[valueStart..<index])))
        }

        /// A quoted string from its opening quote; `\x` stands for `x`. Unterminated: up to the end.
        private mutating func quoted() -> String {
            index += 1
            var value = String.UnicodeScalarView()
            while let scalar = current {
                index += 1
                if scalar == "\"" { break }
                if scalar == "\\", let escaped = current {
                    index += 1
                    value.append(escaped)
                } else {
                    value.append(scalar)
                }
            }
            return String(value)
        }

        /// Skips to the next comma outside quotes (or the end).
        private mutating func skipElement() {
            while let scalar = current, scalar != "," {
                if scalar == "\"" { _ = quoted() } else { index += 1 }
            }
        }

        /// The relation types of a `rel` value: split at any whitespace scalar (RFC 8288 uses
        /// spaces), each lowercased.
        private static func relationTypes(_ value: String) -> [String] {
            value.unicodeScalars
                .split(whereSeparator: \.properties.isWhitespace)
                .map { String(String.UnicodeScalarView($0)).lowercased() }
        }

        private mutating func skip(_ predicate: (Unicode.Scalar) -> Bool) {
            while let scalar = current, predicate(scalar) { index += 1 }
        }

        private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
