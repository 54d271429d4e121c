/// How the REPL named a change it asked of the server, kept by the change's key (a request's
/// id, an announcement's id) for the sentence its outcome says: a row named alone ("@ana's
/// filtered notifications"), or one of several asked together (`accept --all`, `announcements
/// read --all`), which say how they went in one sentence once the server has answered them all.
enum AskedByName {
    case named(String)
    case together(AskedTogether)
}

/// The changes one command asked together: how many the server has still to answer, how many
/// it took, and why it refused the others. Shared by each of them in the REPL's ledger; main
/// actor only, as the REPL is.
final class AskedTogether {
    private(set) var remaining: Int
    private(set) var done = 0
    private(set) var refused: [String] = []

    init(count: Int) { remaining = count }

    /// Counts one answer: taken, or refused with `refusal` (the sentence it says). Returns
    /// whether it was the last one awaited.
    func answered(refusal: String?) -> Bool {
        remaining -= 1
        if let refusal { refused.append(refusal) } else { done += 1 }
        return remaining == 0
    }
}
