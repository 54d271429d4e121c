import Feedline
import Foundation
import Testing

/// The sanitiser's entry points for `String`, `Substring` and any other string type are one
/// rule; a post id's kind reads the same as a search for its marker.
@Suite("Text entry points")
struct TextEntryPointTests {
    /// What a server could send: plain ASCII, escape sequences, line breaks, invisible and
    /// bidirectional characters, joiners inside and outside emoji and shaped scripts, flags.
    static let texts: [String] = [
        "", "plain text", "tab\there", "line\nbreak", "crlf\r\nend", "bell\u{7}", "\u{1B}[31mred\u{1B}[0m",
        "c1 \u{85} \u{9B}", "del\u{7F}", "a\u{200B}da", "rtl \u{202E}txt\u{202C}", "iso \u{2066}x\u{2069}",
        "👩\u{200D}💻", "ab\u{200D}", "\u{200D}ab", "ب\u{200C}ت", "❤\u{FE0F}", "x\u{FE0F}", "1\u{FE0F}\u{20E3}",
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "\u{E0067}", "冬の光は低くて", "sep\u{2028}x",
        "bom\u{FEFF}", "Ünïcödé", "emoji 😀 end",
    ]

    /// The generic entry point, as code that holds some `StringProtocol` reaches it.
    private static func generic<Text: StringProtocol>(_ text: Text, keepingLines: Bool) -> String {
        TextSafety.clean(text, keepingLines: keepingLines)
    }

    private static func genericIsClean<Text: StringProtocol>(_ text: Text) -> Bool {
        TextSafety.isClean(text)
    }

    @Test("clean and isClean say the same of a String, a Substring and a generic string", arguments: [false, true])
    func entryPointsAgree(keepingLines: Bool) {
        for text in Self.texts {
            let whole = TextSafety.clean(text, keepingLines: keepingLines)
            // The text inside a longer one, so the substring does not start at the storage's
            // start; cut by scalars (a joiner first would join the character before it).
            let outer = "«" + text + "»"
            let scalars = outer.unicodeScalars
            let inner = Substring(scalars[scalars.index(after: scalars.startIndex)..<scalars.index(before: scalars.endIndex)])
            #expect(inner.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(TextSafety.clean(inner, keepingLines: keepingLines) == whole, "\(text.debugDescription)")
            #expect(Self.generic(text, keepingLines: keepingLines) == whole, "\(text.debugDescription)")
            #expect(Self.generic(inner, keepingLines: keepingLines) == whole, "\(text.debugDescription)")
            #expect(TextSafety.isClean(inner) == TextSafety.isClean(text), "\(text.debugDescription)")
            #expect(Self.genericIsClean(text) == TextSafety.isClean(text), "\(text.debugDescription)")
            // Clean text is left as it is; cleaning is idempotent.
            if TextSafety.isClean(text) { #expect(whole == text) }
            #expect(TextSafety.clean(whole, keepingLines: keepingLines) == whole, "\(text.debugDescription)")
        }
        #expect(TextSafety.clean("\u{1B}[2J", keepingLines: keepingLines) == " [2J")
        #expect(TextSafety.clean("a\u{200B}b", keepingLines: keepingLines) == "a<U+200B>b")
    }

    @Test("a version's id is one that holds #v; a post's, a sending one's and near misses are not")
    func versionIDs() {
        #expect(PostID.version(1, of: "109876").isVersion)
        #expect(PostID.version(12, of: PostID("a#b")).isVersion)
        for id in ["109876", "sending:3", "", "#", "v", "v#", "#x v", "a#", "#V1"] {
            #expect(!PostID(id).isVersion, "\(id)")
        }
        for id in ["#v", "##v", "x#v2", "#v#v"] {
            #expect(PostID(id).isVersion, "\(id)")
        }
        // The marker is its two bytes: a combining mark after it (which makes `v́` one character,
        // so Foundation's character search would not find `#v`) does not hide it.
        #expect(PostID("12#v\u{301}3").isVersion)
        #expect(!PostID("12#\u{301}v3").isVersion)
        // Seeded ids over the marker's pieces (no combining marks: there the two differ, above)
        // read as a search for "#v" does.
        let seed = UInt64(ProcessInfo.processInfo.environment["FEEDLINE_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("TextEntryPointTests.versionIDs seed \(seed) (FEEDLINE_SEED replays it)")
        var state = seed
        let pieces = ["#", "v", "V", "a", "1", "é", "#v", "v#"]
        for _ in 0..<2_000 {
            var id = ""
            for _ in 0..<Int(next(&state) % 6) { id += pieces[Int(next(&state) % UInt64(pieces.count))] }
            #expect(PostID(id).isVersion == id.contains("#v"), "seed \(seed): \(id)")
        }
    }

    @Test("the in-place byte scan says what the scalar-by-scalar rule says, at every width of scalar")
    func byteScanAgreesWithScalars() {
        // Scalars of one to four UTF-8 bytes either side of every boundary the scan decides on:
        // controls, C1 controls (two bytes), the last kept below U+034F and the first looked
        // at, bidirectional controls, separators and invisibles (three bytes), tags and
        // variation selectors (four bytes).
        let values: [UInt32] = [
            0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xE9, 0x033F, 0x034E, 0x034F, 0x0350, 0x061C, 0x07FF,
            0x0800, 0x180B, 0x200B, 0x200D, 0x2028, 0x202A, 0x202E, 0x2066, 0x2069, 0x3042, 0xFE0F, 0xFEFF, 0xFFFD,
            0x1_0000, 0x1_F600, 0xE_0020, 0xE_007F, 0xE_0100, 0x10_FFFF,
        ]
        let scalars = values.compactMap(Unicode.Scalar.init)
        #expect(scalars.count == values.count)
        let seed = UInt64(ProcessInfo.processInfo.environment["FEEDLINE_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("TextEntryPointTests.byteScanAgreesWithScalars seed \(seed) (FEEDLINE_SEED replays it)")
        var state = seed
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(next(&state) % 7) {
                // Mostly plain letters, as text is, so a scalar that needs a look sits anywhere.
                let roll = next(&state)
                text.append(roll % 3 == 0 ? scalars[Int(roll / 3 % UInt64(scalars.count))] : "a")
            }
            let string = String(text)
            let expected = !string.unicodeScalars.contains(where: TextSafety.needsLook)
            #expect(TextSafety.isClean(string) == expected, "seed \(seed): \(string.debugDescription)")
            #expect(TextSafety.isClean(Substring(string)) == expected, "seed \(seed): \(string.debugDescription)")
            // Clean text comes back as it is.
            if expected { #expect(TextSafety.clean(string) == string, "seed \(seed): \(string.debugDescription)") }
        }
    }

    /// SplitMix64.
    private func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
