import Foundation
import Testing

@testable import FeedlineMastodon

/// `Mastodon.decodeQuickly` (a parsed tree, the fixtures' fast path) against `Mastodon.decode`
/// (`JSONDecoder`): the same statuses where the tree reads a document, and no answer where
/// `JSONDecoder` fails, so every error a fixture gives stays `JSONDecoder`'s.
@Suite struct QuickDecodingTests {
    /// Every bundled status file: the status files of `timeline` and `faults`, the filters'
    /// fixture and the fuzzer's status seeds.
    static func statusFiles() -> [String] {
        let more = ["filters/home.json", "filters/arriving.json"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: FixturePaths.directory("fuzz/status-json").path)) ?? [])
            .map { "fuzz/status-json/\($0)" }
        return FixturePaths.statusFiles() + more.sorted()
    }

    /// The statuses of `data` both ways: quickly (`nil` when the tree did not read it) and by
    /// `JSONDecoder` (`nil` when it threw).
    func bothWays(_ data: Data) -> (quick: [Mastodon.Status]?, decoder: [Mastodon.Status]?) {
        if data.first == UInt8(ascii: "{") {
            return (
                Mastodon.decodeQuickly(Mastodon.Status.self, from: data).map { [$0] },
                (try? Mastodon.decode(Mastodon.Status.self, from: data)).map { [$0] }
            )
        }
        return (
            Mastodon.decodeQuickly([Mastodon.Status].self, from: data), try? Mastodon.decode([Mastodon.Status].self, from: data)
        )
    }

    @Test(arguments: statusFiles())
    func everyBundledStatusFileReadsQuicklyToWhatJSONDecoderReads(_ file: String) throws {
        let data = try Data(contentsOf: try FixturePaths.root().appendingPathComponent(file))
        let (quick, decoder) = bothWays(data)
        let expected = try #require(decoder)
        let read = try #require(quick, "\(file) fell back to JSONDecoder")
        #expect(read == expected)
    }

    /// A status without its closing brace: `STATUS}` in a template is the status, `STATUS,` the
    /// status with more members after it.
    static let status = #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a"}"#

    /// Documents the tree reads as `JSONDecoder` does.
    @Test(arguments: [
        #"[STATUS}]"#,
        #"  [STATUS}, {"id": "2", "created_at": "2026-11-20T09:16:02Z", "account": {"id": "9", "acct": "a"}}]  "#,
        #"STATUS, "content": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t", "spoiler_text": "é😀"}"#,
        #"STATUS, "replies_count": -0, "favourites_count": 9223372036854775807, "in_reply_to_id": 12}"#,
        #"{"id": 18446744073709551615, "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": 7, "acct": "a"}}"#,
        #"STATUS, "poll": {"id": "p", "options": [{"title": "x", "votes_count": null}], "own_votes": [0]}, "visibility": "local"}"#,
        #"STATUS, "media_attachments": [{"id": "m", "type": "image", "meta": {"aspect": 1.5e0, "x": [true, false, null, {}]}}]}"#,
        #"STATUS, "quote": {"state": "accepted", "quoted_status": {"id": "q"}}, "quote_approval": 3}"#,
        #"STATUS, "filtered": [{"filter": {"id": "f", "title": "t", "context": ["home"], "filter_action": "hide"}, "keyword_matches": ["x"]}]}"#,
        #"{"id": "1", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a@b", "fields": [{"name": "n", "value": "v", "verified_at": null}], "moved": {"id": "8", "acct": "c"}}}"#,
    ])
    func documentsTheTreeReads(_ template: String) throws {
        let data = Data(template.replacingOccurrences(of: "STATUS}", with: Self.status + "}")
            .replacingOccurrences(of: "STATUS,", with: Self.status + ",").utf8)
        let (quick, decoder) = bothWays(data)
        let expected = try #require(decoder, "JSONDecoder refused \(template)")
        #expect(quick == expected)
    }

    /// Documents the tree leaves to `JSONDecoder` (which may read them, or say what is wrong).
    @Test(arguments: [
        #"STATUS, "replies_count": 1.0}"#,  // a number JSONDecoder may read as an integer
        #"STATUS, "id": "2"}"#,  // a duplicate key
        #"STATUS, "content": "\ud83d"}"#,  // a lone surrogate
        #"STATUS, "content": "\ud83d\u0041"}"#,
        #"STATUS, "content": "a\#tb"}"#,  // a raw tab in a string
        #"STATUS,}"#,  // a trailing comma
        #"STATUS} x"#,
        #"STATUS, "id": 1e3}"#,
        #"STATUS, "quote": {"quoted_status": {"id": "q", "created_at": "2026-11-20T09:15:02.000Z", "account": {"id": "9", "acct": "a"}, "reblogs_count": 2.0}}}"#,
        #"STATUS, "poll": {"id": "p", "options": [], "own_votes": [1.0]}}"#,
        #"STATUS, "created_at": "yesterday"}"#,
        #"STATUS, "account": {"id": "9"}}"#,
        #"STATUS, "visibility": null, "sensitive": 1}"#,
        #"[STATUS}, 3]"#,
        "\u{FEFF}[STATUS}]",
    ])
    func documentsTheTreeLeavesToJSONDecoder(_ template: String) throws {
        let data = Data(template.replacingOccurrences(of: "STATUS}", with: Self.status + "}")
            .replacingOccurrences(of: "STATUS,", with: Self.status + ",").utf8)
        #expect(bothWays(data).quick == nil)
    }

    @Test func invalidUTF8IsLeftToJSONDecoder() {
        var data = Data("[".utf8) + Data(Self.status.utf8) + Data(#", "content": ""#.utf8)
        data += Data([0xC3, 0x28]) + Data(#""}]"#.utf8)
        #expect(bothWays(data).quick == nil)
        #expect(bothWays(data).decoder == nil)
    }

    /// Randomly broken statuses (a key removed, a value replaced by another kind of JSON) read
    /// quickly only to what `JSONDecoder` reads, and never where it fails.
    @Test func randomlyBrokenStatusesReadQuicklyOnlyAsJSONDecoderReadsThem() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("QuickDecodingTests seed: \(seed)")
        var random = SplitMix64(seed: seed)
        let data = try Data(contentsOf: try FixturePaths.root().appendingPathComponent("timeline/home-2026-11-17.json"))
        let statuses = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
        let replacements: [Any] = [NSNull(), 1, 1.5, -2, "x", "2026-11-20T09:15:02.000Z", true, [Any](), [String: Any](), ["x"], [1.0]]
        var quickReads = 0
        for _ in 0..<400 {
            var status = statuses[random.next(in: 0...(statuses.count - 1))]
            for _ in 0..<random.next(in: 1...3) {
                status = mutate(status, replacements: replacements, random: &random)
            }
            let document = try JSONSerialization.data(withJSONObject: [status])
            let (quick, decoder) = bothWays(document)
            if let quick {
                quickReads += 1
                #expect(quick == decoder, "seed \(seed): \(String(decoding: document, as: UTF8.self))")
            }
        }
        #expect(quickReads > 0, "seed \(seed)")
    }

    /// `value` with one member somewhere inside it removed or replaced.
    private func mutate(_ value: Any, replacements: [Any], random: inout SplitMix64) -> Any {
        if var object = value as? [String: Any], !object.isEmpty {
            let keys = object.keys.sorted()
            let key = keys[random.next(in: 0...(keys.count - 1))]
            switch random.next(in: 0...3) {
            case 0: object[key] = nil
            case 1: object[key] = replacements[random.next(in: 0...(replacements.count - 1))]
            default: object[key] = mutate(object[key] as Any, replacements: replacements, random: &random)
            }
            return object
        }
        if var array = value as? [Any], !array.isEmpty {
            let index = random.next(in: 0...(array.count - 1))
            array[index] = mutate(array[index], replacements: replacements, random: &random)
            return array
        }
        return replacements[random.next(in: 0...(replacements.count - 1))]
    }
}
