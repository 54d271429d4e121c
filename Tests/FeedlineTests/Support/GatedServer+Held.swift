@_spi(FeedService) import Feedline
import FeedlineTestSupport

// What the session tests say of a gated server's held calls, in their words.

extension GatedServer {
    /// The calls waiting for the test, oldest first.
    var waiting: [GatedCall] { held.calls }

    /// Every call held so far, in order.
    var sent: [GatedCall] { held.heldSoFar }

    /// Answers the call waiting at `index` from the model (what the model refuses, as Mastodon
    /// does, is refused).
    func answer(at index: Int) { answerHeld(at: index) }

    /// Refuses the call waiting at `index` ("Forbidden."), changing nothing.
    func refuse(at index: Int) { failHeld(at: index, with: ServerRefusal("Forbidden.")) }

    /// Fails the call waiting at `index` for lack of a connection, changing nothing.
    func lose(at index: Int) { failHeld(at: index, with: ServerUnreachable()) }

    /// The path of a change lost twice: loses the next held call for lack of a connection, then,
    /// once `session`'s backoff on `clock` ends and the change is sent again by itself, answers
    /// it, and waits for the session to settle.
    @MainActor
    func loseThenAnswerAfterBackoff(_ session: FeedSession, clock: ManualClock) async {
        await waitForHeld(1)
        lose(at: 0)
        await session.settle()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        await waitForHeld(1)
        answer(at: 0)
        await session.settle()
    }

    /// Two interaction requests of one original and kind waiting at once — what the view models
    /// promise never to send — as a sentence (`two favourite requests in flight for p3`); `nil`
    /// when there are none.
    var twoInteractionsWaiting: String? {
        let model = model
        var seen: Set<String> = []
        for call in waiting {
            guard let (kind, _, id) = call.interaction else { continue }
            let original = model.original(of: id)?.id ?? id
            if !seen.insert("\(kind) \(original)").inserted { return "two \(kind) requests in flight for \(original)" }
        }
        return nil
    }
}
