import Feedline

/// Every outcome a session tells (``FeedSession/observeOutcomes(_:)``), in order, while the log lives.
@MainActor
final class OutcomeLog {
    private(set) var heard: [Outcome] = []
    private var subscription: Subscription?

    init(_ session: FeedSession) {
        subscription = session.observeOutcomes { [weak self] in self?.heard.append($0) }
    }

    /// The outcomes heard of `subject`'s kind that `matches` picks, in order.
    func of(_ matches: (Outcome.Subject) -> Bool) -> [Outcome] { heard.filter { matches($0.subject) } }

    /// The deletes heard, in order.
    var deletions: [Outcome] { of { if case .deletion = $0 { true } else { false } } }
    /// The votes heard, in order.
    var votes: [Outcome] { of { if case .vote = $0 { true } else { false } } }
    /// The edits heard (answered by the server), in order.
    var edits: [Outcome] { of { if case .edit = $0 { true } else { false } } }

    /// The last draft made to edit or redraft a post, or the refusal's sentence.
    var lastDraft: Result<DraftID, Refusal>? {
        for outcome in heard.reversed() {
            switch outcome {
            case .done(.editDraft(_, let draft?)), .done(.redraft(_, let draft?)): return .success(draft)
            case .refused(.editDraft, let sentence), .refused(.redraft, let sentence): return .failure(Refusal(sentence: sentence))
            default: continue
            }
        }
        return nil
    }

    struct Refusal: Error, Equatable {
        var sentence: String
    }
}
