@_spi(FeedService) import Feedline
import FeedlineState
import FeedlineTestSupport
import Foundation
import Testing

@Suite("Saved drafts")
struct StateStoreDraftsTests {
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    @Test("drafts and submissions on their way round trip with their keys; a save replaces them all")
    @MainActor
    func roundTrip() throws {
            // A service whose posts never answer: the submission stays on its way while the test saves it.
            let service = GatedServer(me: Author(id: "me", displayName: "", handle: "me"), answering: [.composeSettings])
            service.hold(.publish, cancellable: true)
            let saved: [Submission] = {
                let session = FeedSession(service: service, clock: .fixed(Self.now))
                let plain = session.drafts.startPost()
                session.drafts.update(plain) {
                    $0.text = "a draft with a poll"
                    $0.poll = Draft.PollDraft(options: ["yes", "no"], expiresIn: 3_600, multiple: true)
                    $0.contentWarning = "cw"
                    $0.visibility = .private
                }
                let sent = session.drafts.startPost()
                session.drafts.update(sent) { $0.text = "on its way" }
                session.drafts.send(sent)
                return session.drafts.all
            }()
        try withTemporaryDirectory { directory in
            let store = try openStore(directory)
            #expect(try store.loadDrafts() == [])
            #expect(saved.count == 2)
            #expect(saved.contains { $0.key != nil && $0.phase == .sending(attempt: 1) })
            try store.saveDrafts(saved)
            #expect(try openStore(directory).loadDrafts() == saved)
            try store.saveDrafts([saved[0]])
            #expect(try openStore(directory).loadDrafts() == [saved[0]])
        }
    }
}

