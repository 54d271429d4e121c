@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation

import Testing

/// What befalls each post, edit and delete on the drafts model check's ``GatedServer``, drawn
/// from a seeded generator when the call comes: made and answered, made with the answer lost,
/// not made for lack of a connection, rate limited, refused, or made (or not) while the client
/// is killed. The model keeps the posts and their idempotency keys.
private final class PostingFates: Sendable {
    enum Fate: CaseIterable { case answered, answerLost, down, rateLimited, refused, killedAfterCommit, killedBeforeCommit }

    struct Failure: FeedServiceError {
        var message: String
        var isTransient: Bool
        var retryAfter: Duration?
        var errorDescription: String? { message }
    }

    private struct State {
        var generator: SeededGenerator
        var killed = false
    }

    private let state: Locked<State>

    init(seed: UInt64) {
        state = Locked(State(generator: SeededGenerator(seed: seed)))
    }

    /// A server of posts only whose publishes and deletes meet these fates; its home lists every
    /// post not deleted, newest first, in one page.
    func server() -> GatedServer {
        let server = GatedServer(answering: [.page, .newer, .composeSettings, .source])
        server.decide(.publish) { [self] call, model in publish(call, model) }
        server.decide(.delete) { [self] call, model in delete(call, model) }
        return server
    }

    /// Whether a kill was drawn since the last call (and forgets it).
    func takeKill() -> Bool {
        state.withLock { state in
            defer { state.killed = false }
            return state.killed
        }
    }

    private func draw(_ bound: Int) -> Int { state.withLock { $0.generator.next(below: bound) } }

    /// Deletes go through, fail for lack of a connection, or are refused; a post gone is not
    /// found (the model says so).
    private func delete(_ call: GatedCall, _ model: ServerModel<Post>) -> Gate {
        guard model.original(of: PostID(call.key)) != nil else { return .answer }
        switch draw(3) {
        case 0: return .fail(Failure(message: "down", isTransient: true))
        case 1 where draw(2) == 0: return .fail(Failure(message: "not allowed", isTransient: false))
        default: return .answer
        }
    }

    private func publish(_ call: GatedCall, _ model: ServerModel<Post>) -> Gate {
        if let edited = call.editing {
            // Edits: made, made with the answer lost, or not made for lack of a connection; an
            // edit of a post gone is not found (the model says so).
            guard model.original(of: edited) != nil else { return .answer }
            switch draw(4) {
            case 0: return .fail(Failure(message: "down", isTransient: true))
            case 1: return .lose(Failure(message: "timed out", isTransient: true))
            default: return .answer
            }
        }
        // A key whose post was deleted since: the model answers 404, which the client reads as
        // the post made and deleted.
        let known = model.writing.answer(to: call.key, at: model.now) { model.entry($0) != nil }
        if known == .deleted { return .answer }
        // A key the server knows is answered with its post, whatever else happens.
        if known != .new, draw(2) == 0 { return .answer }
        switch Fate.allCases[draw(Fate.allCases.count)] {
        case .answered: return .answer
        case .answerLost: return .lose(Failure(message: "timed out", isTransient: true))
        case .down: return .fail(Failure(message: "down", isTransient: true))
        case .rateLimited: return .fail(Failure(message: "rate limited", isTransient: true, retryAfter: .seconds(300)))
        case .refused:
            // A server that made the post for this key answers with it (Mastodon never refuses a
            // known key); refusals are rarer: one draw in two turns into an answer.
            if known != .new || draw(2) == 0 { return .answer }
            return .fail(Failure(message: "Validation failed", isTransient: false))
        case .killedAfterCommit:
            state.withLock { $0.killed = true }
            return .lose(Failure(message: "killed", isTransient: true))
        case .killedBeforeCommit:
            state.withLock { $0.killed = true }
            return .fail(Failure(message: "killed", isTransient: true))
        }
    }
}

@MainActor
@Suite("Drafts model check")
struct DraftsModelTests {
    /// One device: a session, what it saved last, and what was saved when each send began.
    @MainActor
    private final class Device {
        let server: GatedServer
        let fates: PostingFates
        let retryClock = ManualClock()
        var session: FeedSession
        var saved: [Submission] = []
        var savedAtSend: [Submission] = []
        var subscription: Subscription?

        init(fates: PostingFates) {
            self.fates = fates
            server = fates.server()
            session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
            session.root.appeared()
            follow()
        }

        func follow() {
            subscription = session.drafts.observe { [unowned self] submissions in
                saved = submissions
                if submissions.contains(where: { if case .sending = $0.phase { true } else { false } }) { savedAtSend = submissions }
            }
        }

        /// The process dies: the next one starts from what was saved when the fatal send began.
        func restart(from snapshot: [Submission]) {
            session = FeedSession(service: server, clock: .fixed(testNow), retryClock: retryClock)
            session.root.appeared()
            follow()
            session.drafts.restore(snapshot)
        }

        /// What a user does with refused drafts: sends them again as they are — except one whose
        /// post was made and deleted meanwhile (``PublishedPostDeleted``), or an edit of a post
        /// deleted since ("Record not found"), which they throw away.
        func resendRefused() {
            for submission in session.drafts.all where submission.isEditable {
                if [PublishedPostDeleted.sentence, "Record not found"].contains(submission.refusal) {
                    session.drafts.discard(submission.id)
                } else {
                    session.drafts.send(submission.id)
                }
            }
        }

        /// One of one's posts home shows (confirmed), picked by `draw`.
        func shownPost(_ draw: Int) -> Post? {
            let shown = session.root.rows.compactMap(\.post).filter { !$0.isSending }
            return shown.isEmpty ? nil : shown[draw % shown.count].post
        }
    }

    @Test("5,000 schedules of posts, edits and deletes with lost answers, failures and restarts: exactly one post per submission, no draft lost, and home shows the server's posts as they are")
    func exactlyOnePostPerSubmission() async throws {
        let seed = testSeed(0xD4AF_75)
        print("DraftsModelTests seed \(seed) (replay with FEEDLINE_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        // FEEDLINE_DRAFT_SCHEDULES sets the count (CI's ThreadSanitizer pass runs fewer; the plain pass all).
        let schedules = ProcessInfo.processInfo.environment["FEEDLINE_DRAFT_SCHEDULES"].flatMap(Int.init) ?? 5_000
        for schedule in 0..<schedules {
            let fates = PostingFates(seed: generator.next())
            let device = Device(fates: fates)
            let server = device.server
            var texts: [String] = []
            for step in 0..<10 {
                // An edit asked this step: its draft is written and sent once the source came.
                var edit: (post: PostID, text: String)?
                switch generator.next(below: 7) {
                case 5:
                    if let post = device.shownPost(generator.next(below: 64)) {
                        edit = (post.content.id, "edit \(schedule)-\(step)")
                        device.session.drafts.startEdit(of: post)
                    }
                case 6:
                    if let post = device.shownPost(generator.next(below: 64)) { device.session.delete(post: post.id) }
                case 0, 1:
                    let text = "post \(schedule)-\(step)"
                    texts.append(text)
                    let id = device.session.drafts.startPost()
                    device.session.drafts.update(id) { $0.text = text }
                    device.session.drafts.send(id)
                case 2: device.session.drafts.retry()
                case 3: device.retryClock.advance(by: .seconds(400))
                default:
                    // Refused drafts are sent again as they are (a user who fixed nothing).
                    device.resendRefused()
                }
                await device.session.settle()
                if let edit, let draft = device.session.drafts.all.first(where: { $0.draft.editing == edit.post && $0.isEditable }) {
                    device.session.drafts.update(draft.id) { $0.text = edit.text }
                    device.session.drafts.send(draft.id)
                    await device.session.settle()
                }
                if fates.takeKill() { device.restart(from: device.savedAtSend) }
            }
            // Settle: the connection comes back for good.
            var rounds = 0
            while device.session.drafts.all.contains(where: { $0.isInFlight || $0.refusal != nil }), rounds < 200 {
                rounds += 1
                device.resendRefused()
                device.session.drafts.retry()
                device.retryClock.advance(by: .seconds(400))
                await device.session.settle()
                if fates.takeKill() { device.restart(from: device.savedAtSend) }
            }
            // Every post made, deleted ones too, with the text it was made with.
            let posts = server.model.writing.publishedTexts.map { (id: $0.key, text: $0.value) }
            let context = "schedule \(schedule), seed \(seed)"
            try #require(device.session.drafts.all.isEmpty, "every submission settled: \(device.session.drafts.all) — \(context)")
            for text in texts {
                try #require(posts.filter { $0.text == text }.count == 1, "\(text) posted \(posts.filter { $0.text == text }.count) times — \(context)")
            }
            try #require(posts.count == texts.count, "\(posts.count) posts for \(texts.count) submissions — \(context)")
            // Home shows no post on its way any more, each post once, and each as the server has it.
            let rows = device.session.root.rows.compactMap(\.post)
            let onServer = Dictionary(uniqueKeysWithValues: server.model.timeline(.home).map { ($0.id, $0.text) })
            let sending = rows.contains { $0.isSending }
            try #require(!sending, "a row still sending — \(context)")
            try #require(Set(rows.map(\.post.id)).count == rows.count, "a post shown twice: \(rows.map(\.post.id)) — \(context)")
            for row in rows {
                let now = onServer[row.post.id]
                try #require(now == row.content.text, "\(row.post.id) shows \(row.content.text), the server has \(now ?? "nothing") — \(context)")
            }
            try #require(device.session.root.state.checkInvariants().isEmpty, "\(device.session.root.state.checkInvariants()) — \(context)")
        }
    }
}
