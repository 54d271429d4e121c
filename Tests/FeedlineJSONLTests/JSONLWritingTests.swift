@_spi(FeedService) import Feedline
import FeedlineJSONL
@_spi(FeedService) import FeedlineMastodon
import FeedlineTestSupport
import Foundation
import Testing

@Suite("JSON-lines writing commands")
struct JSONLWritingCommandTests {
    @Test("draft, editDraft, send, discard, drafts and delete parse, with their fields and ids", arguments: [
        (#"{"cmd":"draft"}"#, JSONLCommand(action: .draft(replyTo: nil, .init()), name: "draft")),
        (#"{"cmd":"draft","text":"Hello","id":1}"#, JSONLCommand(id: 1, action: .draft(replyTo: nil, .init(text: "Hello")), name: "draft")),
        (#"{"cmd":"draft","replyTo":"117649322034651655","text":""}"#, JSONLCommand(action: .draft(replyTo: "117649322034651655", .init(text: "")), name: "draft")),
        (
            #"{"cmd":"draft","text":"a","cw":"spoilers","visibility":"followers","language":"en","sensitive":true,"poll":{"options":["Yes","No"],"expiresIn":3600,"multiple":true}}"#,
            JSONLCommand(action: .draft(replyTo: nil, .init(
                text: "a", contentWarning: .some("spoilers"), visibility: .private, language: .some("en"), sensitive: true,
                poll: .some(Draft.PollDraft(options: ["Yes", "No"], expiresIn: 3600, multiple: true))
            )), name: "draft")
        ),
        (#"{"cmd":"draft","visibility":"Direct","poll":{"options":[]}}"#, JSONLCommand(action: .draft(replyTo: nil, .init(visibility: .direct, poll: .some(Draft.PollDraft(options: [])))), name: "draft")),
        (#"{"cmd":"editDraft","draft":"2","cw":null,"language":null,"poll":null}"#, JSONLCommand(action: .editDraft(DraftID("2"), .init(contentWarning: .some(nil), language: .some(nil), poll: .some(nil))), name: "editDraft")),
        (#"{"cmd":"editDraft","draft":"2","language":""}"#, JSONLCommand(action: .editDraft(DraftID("2"), .init(language: .some(nil))), name: "editDraft")),
        // A client may send back a whole draft message: its fields that cannot change are ignored.
        (#"{"cmd":"editDraft","draft":"2","replyTo":"9","phase":"editing","text":"b","visibility":"unlisted"}"#, JSONLCommand(action: .editDraft(DraftID("2"), .init(text: "b", visibility: .unlisted)), name: "editDraft")),
        (#"{"cmd":"draft","quote":"117","quotable":"anyone"}"#, JSONLCommand(action: .draft(replyTo: nil, .init(quote: .some(PostID("117")), quotePolicy: .some(.public))), name: "draft")),
        (#"{"cmd":"editDraft","draft":"2","quote":null,"quotable":null}"#, JSONLCommand(action: .editDraft(DraftID("2"), .init(quote: .some(nil), quotePolicy: .some(nil))), name: "editDraft")),
        (#"{"cmd":"send","draft":"1","id":"s"}"#, JSONLCommand(id: "s", action: .send(DraftID("1")), name: "send")),
        (#"{"cmd":"discard","draft":"a-b"}"#, JSONLCommand(action: .discard(DraftID("a-b")), name: "discard")),
        (#"{"cmd":"drafts","id":[1]}"#, JSONLCommand(id: .array([1]), action: .drafts, name: "drafts")),
        (#"{"cmd":"delete","post":"117655732224000000"}"#, JSONLCommand(action: .delete("117655732224000000"), name: "delete")),
    ])
    func valid(line: String, expected: JSONLCommand) throws {
        #expect(try JSONLCommand.parse(line).get() == expected)
    }

    static let pollShape = #"an object such as {"options":["Yes","No"],"expiresIn":86400,"multiple":false} (or null for none)"#

    @Test("bad writing lines are one exact sentence, with the id", arguments: [
        (#"{"cmd":"editDraft","text":"a","id":1}"#, #"editDraft needs "draft": a draft id string such as "1"."#, 1),
        (#"{"cmd":"editDraft","draft":1}"#, #"editDraft needs "draft": a draft id string such as "1"."#, nil),
        (#"{"cmd":"send"}"#, #"send needs "draft": a draft id string such as "1"."#, nil),
        (#"{"cmd":"send","draft":""}"#, #"send needs "draft": a draft id string such as "1"."#, nil),
        (#"{"cmd":"discard","draft":null,"id":"d"}"#, #"discard needs "draft": a draft id string such as "1"."#, "d"),
        (#"{"cmd":"delete"}"#, #"delete needs "post": a post id string."#, nil),
        (#"{"cmd":"delete","post":5}"#, #"delete needs "post": a post id string."#, nil),
        (#"{"cmd":"draft","text":5,"id":"t"}"#, #"draft: "text" is a string, not 5."#, "t"),
        (#"{"cmd":"draft","text":null}"#, #"draft: "text" is a string, not null."#, nil),
        (#"{"cmd":"editDraft","draft":"1","text":["a"]}"#, #"editDraft: "text" is a string, not ["a"]."#, nil),
        (#"{"cmd":"draft","replyTo":5}"#, #"draft: "replyTo" is the id of the post to reply to, not 5."#, nil),
        (#"{"cmd":"draft","replyTo":""}"#, #"draft: "replyTo" is the id of the post to reply to, not ""."#, nil),
        (#"{"cmd":"draft","cw":true}"#, #"draft: "cw" is the content warning, a string (or null for none), not true."#, nil),
        (#"{"cmd":"draft","visibility":"everyone"}"#, #"draft: "visibility" is public, unlisted, private (or followers) or direct, not "everyone"."#, nil),
        (#"{"cmd":"editDraft","draft":"1","visibility":null}"#, #"editDraft: "visibility" is public, unlisted, private (or followers) or direct, not null."#, nil),
        (#"{"cmd":"draft","language":5}"#, #"draft: "language" is a language code such as "en" (or null to let the server guess), not 5."#, nil),
        (#"{"cmd":"draft","sensitive":"yes"}"#, #"draft: "sensitive" is true or false, not "yes"."#, nil),
        (#"{"cmd":"draft","quote":7}"#, #"draft: "quote" is the id of the post to quote (or null for none), not 7."#, nil),
        (#"{"cmd":"editDraft","draft":"1","quotable":"friends"}"#, #"editDraft: "quotable" is who may quote the post: public, followers or nobody (or null for the account's default), not "friends"."#, nil),
        (#"{"cmd":"draft","poll":["Yes","No"]}"#, "draft: \"poll\" is \(Self.pollShape), not [\"Yes\",\"No\"].", nil),
        (#"{"cmd":"draft","poll":{"options":"Yes"}}"#, "draft: \"poll\" is \(Self.pollShape), not {\"options\":\"Yes\"}.", nil),
        (#"{"cmd":"draft","poll":{"options":["Yes",2]}}"#, "draft: \"poll\" is \(Self.pollShape), not {\"options\":[\"Yes\",2]}.", nil),
        (#"{"cmd":"draft","poll":{"options":["a","b"],"expiresIn":1.5}}"#, "draft: \"poll\" is \(Self.pollShape), not {\"expiresIn\":1.5,\"options\":[\"a\",\"b\"]}.", nil),
        (#"{"cmd":"draft","poll":{"options":["a","b"],"expiresIn":-1}}"#, "draft: \"poll\" is \(Self.pollShape), not {\"expiresIn\":-1,\"options\":[\"a\",\"b\"]}.", nil),
        (#"{"cmd":"draft","poll":{"options":["a","b"],"multiple":"no"}}"#, "draft: \"poll\" is \(Self.pollShape), not {\"multiple\":\"no\",\"options\":[\"a\",\"b\"]}.", nil),
        // The first field of the wrong type, in the draft message's order, is the one named.
        (#"{"cmd":"draft","sensitive":1,"text":2}"#, #"draft: "text" is a string, not 2."#, nil),
        (#"{"cmd":"draft","cw":["\#(String(repeating: "y", count: 100))"]}"#, #"draft: "cw" is the content warning, a string (or null for none), not ["\#(String(repeating: "y", count: 38))…."#, nil),
        (#"{"cmd":"drafs"}"#, "Unknown command \"drafs\". Did you mean \"draft\"? Commands: \(JSONLCommandTests.commandList).", nil),
        (#"{"cmd":"compose"}"#, "Unknown command \"compose\". Commands: \(JSONLCommandTests.commandList).", nil),
    ] as [(String, String, JSONLValue?)])
    func invalid(line: String, message: String, id: JSONLValue?) {
        switch JSONLCommand.parse(line) {
        case .success(let command): Issue.record("parsed \(command), expected \(message)")
        case .failure(let error):
            #expect(error.message == message)
            #expect(error.id == id)
        }
    }
}

/// A driver on a sandbox session made in the test: its fixtures from `Fixtures/`, latency on a
/// virtual clock, dates at 2026-11-21T18:00:00Z (new posts' ids too), and a retry clock that
/// never moves (a queued post is sent again by `retry` alone, as in the binary on the sandbox).
@MainActor
final class WritingClient {
    let session: FeedSession
    private(set) var driver: JSONLinesDriver!
    /// Every line written, but `outcome` messages unless `hearsOutcomes` (see ``outcomes``).
    private(set) var lines: [String] = []
    /// Every `outcome` message written, in order.
    private(set) var outcomes: [String] = []

    /// `hearsOutcomes`: whether `outcome` messages are among ``lines`` (a test of where they
    /// come) or only in ``outcomes`` (a test of the other messages).
    init(fixtures folder: String, keepsState: Bool = false, hearsOutcomes: Bool = false) throws {
        let now = Date(timeIntervalSince1970: 1_795_284_000)
        let fixture = try FixtureLoader.load(from: PackagePaths.root().appendingPathComponent("Fixtures").appendingPathComponent(folder))
        let service = try SandboxService(fixture: fixture, clock: VirtualClock(), wallClock: .fixed(now))
        session = FeedSession(service: service, clock: .fixed(now), retryClock: ManualClock())
        driver = JSONLinesDriver(session: session, keepsState: keepsState) { [weak self] line in
            if line.hasPrefix(#"{"type":"outcome""#) {
                self?.outcomes.append(line)
                if !hearsOutcomes { return }
            }
            self?.lines.append(line)
        }
    }

    /// Starts the driver and waits for the first page; returns the lines so far.
    @discardableResult
    func start() async -> [String] {
        let start = lines.count
        driver.start()
        return Array(lines[start...]) + (await wait())
    }

    /// Handles `line`; returns the lines it wrote (its replies through `ok` or `error`).
    @discardableResult
    func send(_ line: String) async -> [String] {
        let start = lines.count
        _ = await driver.handle(line)
        return Array(lines[start...])
    }

    /// Sends `wait`; returns what was written before its `idle`.
    @discardableResult
    func wait() async -> [String] {
        let start = lines.count
        _ = await driver.handle(#"{"cmd":"wait","id":"w"}"#)
        let written = Array(lines[start...])
        #expect(written.suffix(2) == [#"{"type":"idle","id":"w"}"#, #"{"type":"ok","cmd":"wait","id":"w"}"#])
        return written.dropLast(2)
    }

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// The `draft` messages among `lines`, each as `"DRAFT PHASE[ ATTEMPT][ refused][ #ID]"`.
    static func drafts(_ lines: [String]) -> [String] {
        lines.map(object).filter { $0["type"] as? String == "draft" }.map { message in
            var words = [message["draft"] as? String ?? "?", message["phase"] as? String ?? "?"]
            if let attempt = message["attempt"] as? Int { words.append(String(attempt)) }
            if message["refusal"] is String { words.append("refused") }
            if let id = message["id"] { words.append("#\(id)") }
            return words.joined(separator: " ")
        }
    }
}

/// A `draft` message line as the driver writes it: every field, in order; `nil` fields are null.
func draftLine(
    id: String? = nil, draft: String, text: String, cw: String? = nil, visibility: String = "public", language: String? = nil,
    sensitive: Bool = false, replyTo: String? = nil, editing: String? = nil, poll: String = "null", quote: String? = nil, quotable: String? = nil,
    phase: String, attempt: Int? = nil, reason: String? = nil,
    retryIn: Int? = nil, post: String? = nil, refusal: String? = nil, problems: [String] = [], left: Int
) -> String {
    func quoted(_ text: String?) -> String { text.map { JSONLValue.string($0).json } ?? "null" }
    let fields = [
        id.map { #""id":\#(quoted($0)),"# } ?? "",
        #""draft":\#(quoted(draft)),"text":\#(quoted(text)),"cw":\#(quoted(cw)),"visibility":"\#(visibility)","language":\#(quoted(language)),"#,
        #""sensitive":\#(sensitive),"replyTo":\#(quoted(replyTo)),"editing":\#(quoted(editing)),"poll":\#(poll),"quote":\#(quoted(quote)),"quotable":\#(quoted(quotable)),"phase":"\#(phase)","attempt":\#(attempt.map(String.init) ?? "null"),"#,
        #""reason":\#(quoted(reason)),"retryIn":\#(retryIn.map(String.init) ?? "null"),"post":\#(quoted(post)),"refusal":\#(quoted(refusal)),"#,
        #""problems":[\#(problems.map { quoted($0) }.joined(separator: ","))],"charactersLeft":\#(left)"#,
    ]
    return #"{"type":"draft",\#(fields.joined())}"#
}

@MainActor
@Suite("JSON-lines writing on the sandbox", .timeLimit(.minutes(10)))
struct JSONLWritingSessionTests {
    static let timedOut = "The request timed out; try again."
    static let unavailable = "The server is unavailable right now; try again in a moment."
    static let refused = "Validation failed: Text can't be blank"
    /// The faults fixture's posts: by @wen@teahouse.cafe, and by @nadia (local).
    static let wens = "117649628592706386"
    static let nadias = "117649322034651655"
    static let pond = "First light over the pond https://example.org/pond/photos/2026-11-21/dawn"
    static let pondPoll = #"{"options":["Frost","Fog"],"expiresIn":3600,"multiple":false}"#

    @Test("a draft quotes a post it may (quote, quotable in its messages); a post whose policy forbids it, an unknown post or an edit's quote is refused with its sentence and changes nothing; null removes the quote")
    func quotes() async throws {
        let client = try WritingClient(fixtures: "timeline")
        await client.start()
        let sams = "117645532415752138"
        let kemis = "117644154408105991"
        #expect(await client.send(#"{"cmd":"draft","text":"Herons","quote":"\#(kemis)","id":"n"}"#) == [
            #"{"type":"error","message":"Post \#(kemis) cannot be quoted: You may not quote this post: only its author may quote it.","id":"n"}"#,
        ])
        #expect(await client.send(#"{"cmd":"draft","text":"Herons","quote":"\#(sams)","quotable":"followers","id":"d"}"#) == [
            draftLine(id: "d", draft: "1", text: "Herons", quote: sams, quotable: "followers", phase: "editing", left: 494),
            #"{"type":"ok","cmd":"draft","id":"d"}"#,
        ])
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","quote":"\#(kemis)","text":"changed","id":"e"}"#) == [
            #"{"type":"error","message":"Post \#(kemis) cannot be quoted: You may not quote this post: only its author may quote it.","id":"e"}"#,
        ])
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","quote":"999","id":"u"}"#) == [
            #"{"type":"error","message":"Unknown post 999: no screen on the stack shows it.","id":"u"}"#,
        ])
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","quote":null,"quotable":null,"id":"r"}"#) == [
            draftLine(id: "r", draft: "1", text: "Herons", phase: "editing", left: 494),
            #"{"type":"ok","cmd":"editDraft","id":"r"}"#,
        ])
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","quote":"\#(sams)","id":"q"}"#).first == draftLine(id: "q", draft: "1", text: "Herons", quote: sams, phase: "editing", left: 494))
        await client.send(#"{"cmd":"send","draft":"1","id":"s"}"#)
        let sent = await client.wait().first { WritingClient.object($0)["type"] as? String == "draft" }
        let message = try #require(sent.map(WritingClient.object))
        #expect(message["phase"] as? String == "sent" && message["quote"] as? String == sams)
        let made = try #require(message["post"] as? String)
        let post = try #require(client.session.store.post(PostID(made)))
        #expect(post.quote?.postID == PostID(sams), "the post made quotes Sam's, pending their approval")
        #expect(post.quote?.state == .pending)
    }

    @Test("a draft is made, edited, sent, queued after a lost answer, retried and sent once: every message, byte for byte")
    func draftToSent() async throws {
        let client = try WritingClient(fixtures: "faults")
        await client.start()

        #expect(await client.send(#"{"cmd":"draft","text":"First light","id":"d"}"#) == [
            draftLine(id: "d", draft: "1", text: "First light", phase: "editing", left: 489),
            #"{"type":"ok","cmd":"draft","id":"d"}"#,
        ])
        let edit = #"{"cmd":"editDraft","draft":"1","text":"\#(Self.pond)","cw":"frost","visibility":"followers","language":"en","poll":\#(Self.pondPoll),"id":"e"}"#
        // The URL counts as 23 characters, the content warning with the text: 500 - (26 + 23 + 5).
        #expect(await client.send(edit) == [
            draftLine(id: "e", draft: "1", text: Self.pond, cw: "frost", visibility: "private", language: "en", poll: Self.pondPoll, phase: "editing", left: 446),
            #"{"type":"ok","cmd":"editDraft","id":"e"}"#,
        ])
        // The reply (how the lists show the post on its way, as `changes` before it, is the
        // lists' business: not pinned here).
        let sending = await client.send(#"{"cmd":"send","draft":"1","id":"s"}"#)
        #expect(sending.filter { WritingClient.object($0)["type"] as? String != "changes" } == [
            draftLine(id: "s", draft: "1", text: Self.pond, cw: "frost", visibility: "private", language: "en", poll: Self.pondPoll, phase: "sending", attempt: 1, left: 446),
            #"{"type":"ok","cmd":"send","id":"s"}"#,
        ])
        // The server made the post, but its answer was lost: queued, unasked, with why and when.
        let queued = draftLine(
            draft: "1", text: Self.pond, cw: "frost", visibility: "private", language: "en", poll: Self.pondPoll, phase: "queued", attempt: 1,
            reason: Self.timedOut, retryIn: 2, left: 446
        )
        #expect(await client.wait() == [queued])
        #expect(await client.send(#"{"cmd":"drafts","id":"l"}"#) == [
            #"{"type":"drafts","id":"l","drafts":[\#(queued.replacingOccurrences(of: #"{"type":"draft","#, with: "{"))]}"#,
            #"{"type":"ok","cmd":"drafts","id":"l"}"#,
        ])

        // retry sends it again with the same key: the server answers with the post it made.
        #expect(await client.send(#"{"cmd":"retry","id":"r"}"#) == [
            draftLine(draft: "1", text: Self.pond, cw: "frost", visibility: "private", language: "en", poll: Self.pondPoll, phase: "sending", attempt: 2, left: 446),
            #"{"type":"retrying","id":"r","interactions":[],"drafts":["1"]}"#,
            #"{"type":"ok","cmd":"retry","id":"r"}"#,
        ])
        let settled = await client.wait()
        let sent = try #require(settled.first)
        #expect(sent == draftLine(
            draft: "1", text: Self.pond, cw: "frost", visibility: "private", language: "en", poll: Self.pondPoll, phase: "sent",
            post: "117655732224000000", left: 446
        ))
        // Then the post on top of home: a row at index 0 (new, or the row that showed it on its
        // way) whose original is the server's post.
        let topRows = settled.dropFirst().map(WritingClient.object).filter { $0["type"] as? String == "changes" }.flatMap { message in
            ((message["inserted"] as? [[String: Any]] ?? []) + (message["updated"] as? [[String: Any]] ?? [])).filter { $0["index"] as? Int == 0 }
        }
        #expect(topRows.contains { ($0["row"] as? [String: Any])?["original"] as? String == "117655732224000000" })
        #expect(client.session.root.rows.first?.post?.originalID == "117655732224000000")

        // One post at the server, though it was sent twice; nothing left in drafts.
        let home = try await client.session.service.page(of: .home, after: nil).items
        #expect(home.filter { $0.text.hasPrefix("First light") }.count == 1, "\(home.map { ($0.id, $0.text.prefix(20)) })")
        #expect(await client.send(#"{"cmd":"drafts","id":"l2"}"#).first == #"{"type":"drafts","id":"l2","drafts":[]}"#)
    }

    @Test("every change of a submission arrives unasked, in order: sending before queued or refused, sending again before sent")
    func phasesInOrder() async throws {
        let client = try WritingClient(fixtures: "faults")
        await client.start()
        let start = client.lines.count
        // Publish 1 loses its answer (queued), 2 is the retry (sent).
        await client.send(#"{"cmd":"draft","text":"One","id":"d1"}"#)
        await client.send(#"{"cmd":"send","draft":"1","id":"s1"}"#)
        await client.wait()
        await client.send(#"{"cmd":"retry","id":"r1"}"#)
        await client.wait()
        // Publish 3 is refused (back to editing, with the sentence), 4 finds the server down, 5 goes.
        await client.send(#"{"cmd":"draft","text":"Two","id":"d2"}"#)
        await client.send(#"{"cmd":"send","draft":"2","id":"s2"}"#)
        let refusal = await client.wait()
        #expect(WritingClient.object(try #require(refusal.first))["refusal"] as? String == Self.refused)
        await client.send(#"{"cmd":"send","draft":"2","id":"s3"}"#)
        let down = await client.wait()
        #expect(WritingClient.object(try #require(down.first))["reason"] as? String == Self.unavailable)
        await client.send(#"{"cmd":"retry","id":"r2"}"#)
        await client.wait()

        let written = Array(client.lines[start...])
        #expect(WritingClient.drafts(written) == [
            "1 editing #d1", "1 sending 1 #s1", "1 queued 1", "1 sending 2", "1 sent",
            "2 editing #d2", "2 sending 1 #s2", "2 editing refused", "2 sending 1 #s3", "2 queued 1", "2 sending 2", "2 sent",
        ])
        // A command's draft message comes right before its ok.
        for (index, line) in written.enumerated() {
            let message = WritingClient.object(line)
            guard message["type"] as? String == "draft", let id = message["id"] as? String else { continue }
            #expect(written.indices.contains(index + 1) && WritingClient.object(written[index + 1])["id"] as? String == id)
        }
        #expect(client.session.drafts.all.isEmpty)
    }

    @Test("an edit is answered like every write: refused with the sentence; queued with why and when, right after its draft says queued, then done under the same id")
    func editOutcomes() async throws {
        let client = try WritingClient(fixtures: "faults", hearsOutcomes: true)
        await client.start()
        // Publish 1 loses its answer, 2 (the retry) makes the post.
        await client.send(#"{"cmd":"draft","text":"One","id":"d1"}"#)
        await client.send(#"{"cmd":"send","draft":"1","id":"s1"}"#)
        await client.wait()
        await client.send(#"{"cmd":"retry","id":"r1"}"#)
        await client.wait()
        let post = "117655732224000000"
        #expect(client.session.store.post(PostID(post))?.text == "One")
        await client.send(#"{"cmd":"editPost","post":"\#(post)","id":"e"}"#)
        await client.send(#"{"cmd":"editDraft","draft":"2","text":"One, edited","id":"t"}"#)
        let start = client.lines.count
        // Publish 3 is refused; 4 finds the server down (queued); 5, the retry, goes.
        await client.send(#"{"cmd":"send","draft":"2","id":"s2"}"#)
        await client.wait()
        await client.send(#"{"cmd":"send","draft":"2","id":"s3"}"#)
        await client.wait()
        await client.send(#"{"cmd":"retry","id":"r2"}"#)
        await client.wait()

        let written = Array(client.lines[start...])
        let subject = #"{"change":"edit","post":"\#(post)"}"#
        let queued = #"{"type":"outcome","id":"s3","subject":\#(subject),"result":"queued","sentence":"\#(Self.unavailable)","retryIn":2}"#
        #expect(written.filter { $0.contains(#""change":"edit""#) } == [
            #"{"type":"outcome","id":"s2","subject":\#(subject),"result":"refused","sentence":"\#(Self.refused)"}"#,
            queued,
            #"{"type":"outcome","id":"s3","subject":\#(subject),"result":"done","sentence":null}"#,
        ])
        // The queued outcome comes right after the draft's own queued message, before the next command.
        let index = try #require(written.firstIndex(of: queued))
        #expect(WritingClient.drafts([written[index - 1]]) == ["2 queued 1"])
        #expect(client.session.store.post(PostID(post))?.text == "One, edited")
    }

    @Test("changes made by another front come unasked and without an id, sending before sent")
    func madeElsewhere() async throws {
        let client = try WritingClient(fixtures: "faults")
        await client.start()
        let start = client.lines.count
        let drafts = client.session.drafts
        let id = drafts.startPost()
        drafts.update(id) { $0.text = "Made elsewhere" }
        drafts.send(id)
        await client.wait()
        drafts.retry()
        await client.wait()
        let written = Array(client.lines[start...]).filter { WritingClient.object($0)["type"] as? String == "draft" }
        #expect(WritingClient.drafts(written) == ["1 editing", "1 editing", "1 sending 1", "1 queued 1", "1 sending 2", "1 sent"])
        #expect(written.allSatisfy { !$0.contains(#""id":"#) })
    }

    @Test("a reply waits for the account, mentions the post's author and everyone it mentions, never the signed-in account")
    func replyMentions() async throws {
        let client = try WritingClient(fixtures: "timeline")
        await client.start()
        // Kemi's post (not on home) mentions @you, the signed-in account.
        let kemis = "117633411306370708"
        #expect(await client.send(#"{"cmd":"draft","replyTo":"\#(kemis)","text":"Thanks!","id":"x"}"#) == [
            #"{"type":"error","message":"Unknown post \#(kemis): no screen on the stack shows it.","id":"x"}"#,
        ])
        await client.send(#"{"cmd":"open","post":"\#(kemis)"}"#)
        await client.wait()
        #expect(client.session.drafts.settings == nil, "nothing asked for the account yet")
        let reply = await client.send(#"{"cmd":"draft","replyTo":"\#(kemis)","text":"Thanks!","id":"r"}"#)
        #expect(reply.count == 2)
        let draft = WritingClient.object(try #require(reply.first))
        #expect(draft["text"] as? String == "@kemi@fieldnotes.science Thanks!")
        #expect(draft["replyTo"] as? String == kemis)
        #expect(draft["id"] as? String == "r" && draft["phase"] as? String == "editing")

        // One's own post that mentions Kemi and oneself: a reply to it mentions Kemi only.
        await client.send(#"{"cmd":"back"}"#)
        await client.send(#"{"cmd":"draft","text":"Walking with @kemi@fieldnotes.science and @you","id":"p"}"#)
        await client.send(#"{"cmd":"send","draft":"2","id":"s"}"#)
        let sent = WritingClient.object(try #require(await client.wait().first))
        let own = try #require(sent["post"] as? String)
        let toSelf = WritingClient.object(try #require(await client.send(#"{"cmd":"draft","replyTo":"\#(own)","id":"o"}"#).first))
        #expect(toSelf["text"] as? String == "@kemi@fieldnotes.science ")
        #expect(toSelf["replyTo"] as? String == own)
    }

    @Test("delete: one's own post leaves the lists at once, back when the server fails; the reply waits for the answer; someone else's is refused")
    func delete() async throws {
        let client = try WritingClient(fixtures: "faults")
        await client.start()
        // Someone else's post the session knows: refused at once, the account asked for first;
        // nothing leaves the list.
        #expect(await client.send(#"{"cmd":"delete","post":"\#(Self.wens)","id":"a"}"#) == [
            #"{"type":"error","message":"Only your own posts can be deleted; post \#(Self.wens) is by @wen@teahouse.cafe.","id":"a"}"#,
        ])
        await client.send(#"{"cmd":"draft","text":"Soon gone"}"#)
        await client.send(#"{"cmd":"send","draft":"1"}"#)
        await client.wait()
        await client.send(#"{"cmd":"retry"}"#)
        let answered = try #require(await client.wait().first)
        let own = try #require(WritingClient.object(answered)["post"] as? String)
        #expect(client.session.root.rows.first?.post?.originalID == PostID(own))

        // The faults fixture's first delete finds the server down: the row leaves, comes back.
        let failed = await client.send(#"{"cmd":"delete","post":"\#(own)","id":"b"}"#).map(WritingClient.object)
        #expect(failed.map { $0["type"] as? String } == ["changes", "changes", "error"])
        #expect(failed.first?["deleted"] as? [Int] == [0])
        #expect((failed.dropFirst().first?["inserted"] as? [[String: Any]])?.first?["index"] as? Int == 0)
        #expect(failed.last?["message"] as? String == "Could not delete post \(own): \(Self.unavailable)")
        #expect(client.session.root.rows.first?.post?.originalID == PostID(own))

        let deleted = await client.send(#"{"cmd":"delete","post":"\#(own)","id":"c"}"#)
        #expect(deleted.count == 3)
        #expect(WritingClient.object(try #require(deleted.first))["deleted"] as? [Int] == [0])
        #expect(deleted.suffix(2) == [#"{"type":"deleted","id":"c","post":"\#(own)"}"#, #"{"type":"ok","cmd":"delete","id":"c"}"#])
        #expect(!client.session.root.rows.contains { $0.post?.originalID == PostID(own) })
        #expect(await client.send(#"{"cmd":"delete","post":"\#(own)","id":"d"}"#) == [
            #"{"type":"error","message":"Could not delete post \#(own): Record not found","id":"d"}"#,
        ])
        // A post the session has not seen: the server says whose it is.
        #expect(await client.send(#"{"cmd":"delete","post":"117648452425235460","id":"e"}"#) == [
            #"{"type":"error","message":"Could not delete post 117648452425235460: This action is not allowed.","id":"e"}"#,
        ])
    }

    @Test("editDraft, send and discard refuse unknown drafts and drafts on their way; send lists every problem and keeps the draft")
    func refusals() async throws {
        let client = try WritingClient(fixtures: "faults")
        await client.start()
        for command in ["editDraft", "send", "discard"] {
            #expect(await client.send(#"{"cmd":"\#(command)","draft":"9","id":"u"}"#) == [
                #"{"type":"error","message":"Unknown draft 9: no draft or post on its way has that id.","id":"u"}"#,
            ])
        }
        await client.send(#"{"cmd":"draft"}"#)
        #expect(await client.send(#"{"cmd":"send","draft":"1","id":"e"}"#) == [
            #"{"type":"error","message":"Draft 1 is not sent: The post is empty: write something, or attach media or a poll.","id":"e"}"#,
        ])
        let poll = #"{"options":["Only"],"expiresIn":86400,"multiple":false}"#
        let direct = await client.send(#"{"cmd":"editDraft","draft":"1","text":"\#(String(repeating: "a", count: 501))","visibility":"direct","poll":\#(poll),"id":"p"}"#)
        let problems = ["The post is 1 character too long.", "A poll needs at least two choices.", "A direct message needs at least one @mention to reach anyone."]
        #expect(direct.first == draftLine(
            id: "p", draft: "1", text: String(repeating: "a", count: 501), visibility: "direct", poll: poll, phase: "editing", problems: problems, left: -1
        ))
        #expect(await client.send(#"{"cmd":"send","draft":"1","id":"e2"}"#) == [
            #"{"type":"error","message":"Draft 1 is not sent: \#(problems.joined(separator: " "))","id":"e2"}"#,
        ])
        #expect(client.session.drafts[DraftID("1")]?.phase == .editing)

        await client.send(#"{"cmd":"editDraft","draft":"1","text":"Fine now","visibility":"public","poll":null}"#)
        await client.send(#"{"cmd":"send","draft":"1"}"#)
        #expect(await client.send(#"{"cmd":"send","draft":"1","id":"a"}"#) == [
            #"{"type":"error","message":"Draft 1 is on its way already (sending); retry sends a queued one at once.","id":"a"}"#,
        ])
        #expect(await client.send(#"{"cmd":"editDraft","draft":"1","text":"x","id":"b"}"#) == [
            #"{"type":"error","message":"Draft 1 is on its way (sending); only a draft being written can change.","id":"b"}"#,
        ])
        await client.wait()
        #expect(await client.send(#"{"cmd":"discard","draft":"1","id":"c"}"#) == [
            #"{"type":"error","message":"Draft 1 is on its way (queued) and cannot be thrown away: a post may be made of it.","id":"c"}"#,
        ])
        // A draft being written can go.
        await client.send(#"{"cmd":"draft","text":"Never mind"}"#)
        #expect(await client.send(#"{"cmd":"discard","draft":"2","id":"d"}"#) == [#"{"type":"ok","cmd":"discard","id":"d"}"#])
        #expect(client.session.drafts.all.map(\.id.rawValue) == ["1"])
    }

    @Test("bye names the posts still on their way, not the drafts being written; kept when the session keeps state")
    func bye() async throws {
        let client = try WritingClient(fixtures: "faults", keepsState: true)
        await client.start()
        await client.send(#"{"cmd":"draft","text":"Still on its way"}"#)
        await client.send(#"{"cmd":"send","draft":"1"}"#)
        await client.wait()
        await client.send(#"{"cmd":"draft","text":"Only a draft"}"#)
        let end = await client.send(#"{"cmd":"quit","id":"q"}"#)
        let queued = draftLine(draft: "1", text: "Still on its way", phase: "queued", attempt: 1, reason: Self.timedOut, retryIn: 2, left: 484)
        #expect(end == [
            #"{"type":"ok","cmd":"quit","id":"q"}"#,
            #"{"type":"bye","unsent":[],"submissions":[\#(queued.replacingOccurrences(of: #"{"type":"draft","#, with: "{"))],"kept":true}"#,
        ])
    }

    @Test("drafts kept from an earlier run are listed at start, after the first snapshot")
    func draftsAtStart() async throws {
        let client = try WritingClient(fixtures: "faults")
        let id = client.session.drafts.startPost()
        client.session.drafts.update(id) { $0.text = "From last time" }
        let opening = await client.start()
        #expect(opening.prefix(3).map { WritingClient.object($0)["type"] as? String } == ["hello", "routes", "timeline"])
        #expect(opening.dropFirst(3).first == #"{"type":"drafts","drafts":[\#(draftLine(draft: "1", text: "From last time", phase: "editing", left: 486).replacingOccurrences(of: #"{"type":"draft","#, with: "{"))]}"#)
    }
}

/// A service that only reads, with nothing in it: its writes are refused.
private func readOnlyService() -> GatedServer {
    let server = GatedServer(answering: [.page])
    server.fail(.composeSettings, .publish, .delete, .source, .history, .vote, with: WritingUnsupported())
    return server
}

@MainActor
@Suite("JSON-lines writing where the service cannot write", .timeLimit(.minutes(10)))
struct JSONLReadOnlyWritingTests {
    @Test("draft is refused with the service's sentence and makes nothing; delete says why it failed")
    func refused() async throws {
        let session = FeedSession(service: readOnlyService(), retryClock: ManualClock())
        var lines: [String] = []
        let driver = JSONLinesDriver(session: session) { lines.append($0) }
        driver.start()
        _ = await driver.handle(#"{"cmd":"wait"}"#)
        lines.removeAll()
        let readOnly = WritingUnsupported().errorDescription ?? ""
        _ = await driver.handle(#"{"cmd":"draft","text":"Hello","id":1}"#)
        _ = await driver.handle(#"{"cmd":"delete","post":"1","id":2}"#)
        #expect(lines == [
            #"{"type":"error","message":"Cannot write here: \#(readOnly)","id":1}"#,
            #"{"type":"outcome","id":2,"subject":{"change":"delete","post":"1"},"result":"refused","sentence":"\#(readOnly)"}"#,
            #"{"type":"error","message":"Could not delete post 1: \#(readOnly)","id":2}"#,
        ], "the outcome, then the command's error")
        #expect(session.drafts.all.isEmpty)
    }
}

/// The writing example of Docs/JSONL.md, replayed through the binary: a golden transcript.
@MainActor
@Suite("feedline --jsonl writing through the binary", .timeLimit(.minutes(10)))
struct JSONLWritingBinaryTests {
    @Test("with --state, a post on its way at quit is kept: bye says so, the next start lists it, retry sends it")
    func keptForNextStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feedline-jsonl-writing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = ["--jsonl", "--fixtures", "Fixtures/faults", "--now", "2026-11-21T18:00:00Z", "--state", directory.path]
        let first = try Conversation(flags)
        await first.settle()
        await first.command(#"{"cmd":"draft","text":"Kept for later","id":"d"}"#, id: "d")
        await first.command(#"{"cmd":"send","draft":"1","id":"s"}"#, id: "s")
        let queued = await first.settle().filter { $0.type == "draft" }
        #expect(queued.last?["phase"] as? String == "queued")
        await first.command(#"{"cmd":"draft","text":"Still a draft","id":"d2"}"#, id: "d2")
        await first.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        let bye = try #require(await first.read { $0.type == "bye" }.last)
        #expect(bye["kept"] as? Bool == true)
        #expect((bye["submissions"] as? [Message])?.map { $0["draft"] as? String } == ["1"])
        #expect(await first.child.finish().status == 0)

        let second = try Conversation(flags)
        let opening = await second.settle()
        #expect(opening.prefix(4).map(\.type) == ["hello", "routes", "timeline", "drafts"])
        let kept = try #require(opening.dropFirst(3).first?["drafts"] as? [Message])
        #expect(kept.map { "\($0["draft"] ?? "") \($0["phase"] ?? "")" } == ["1 queued", "2 editing"])
        // This sandbox is a new process: its first publish loses its answer again, the second goes.
        await second.command(#"{"cmd":"retry","id":"r1"}"#, id: "r1")
        await second.settle()
        await second.command(#"{"cmd":"retry","id":"r2"}"#, id: "r2")
        await second.settle()
        let phases = second.messages.filter { $0.type == "draft" }.map { "\($0["phase"] ?? "") \(($0["attempt"] as? Int).map(String.init) ?? "-")" }
        #expect(phases == ["sending 2", "queued 2", "sending 3", "sent -"], "\(phases)")
        await second.command(#"{"cmd":"quit","id":"q"}"#, id: "q")
        let last = try #require(await second.read { $0.type == "bye" }.last)
        #expect(last["submissions"] == nil && last["kept"] as? Bool == true)
        #expect(await second.child.finish().status == 0)
        #expect(first.strayLines.isEmpty && second.strayLines.isEmpty)
    }

    @Test("the writing example in Docs/JSONL.md is what the binary prints (… stands for trimmed text)")
    func documentedExample() async throws {
        try await DocumentedExample.check(heading: "Writing example", flags: ["--jsonl", "--fixtures", "Fixtures/faults", "--now", "2026-11-21T18:00:00Z"])
    }
}
