import Feedline

/// Lists of accounts: `accept` and `reject` answer the follow request an account row of a list of
/// follow requests shows. (Their rows, and `search`, need nothing of the driver: a list screen
/// is followed whatever its rows are, and `search` is a push.)
extension JSONLinesDriver {
    /// Accepts (`accept`) or rejects the follow request the row `id` of `list` (screen `index`)
    /// shows; the error's sentence when it cannot: the screen is not the follow requests, the row
    /// is not on it, or an answer is on its way or was taken.
    ///
    /// The answer shows at once, before the `ok`: a `relationship` message with `requestAnswer`
    /// pending, and the `changes` of every screen with a row of the account. The server's answer
    /// follows later: the row leaves every list of requests and the relationship is the server's
    /// (`followedBy` once accepted) — or, refused, the `requestAnswer` says why and the row stays,
    /// to be answered again.
    func answer(_ id: RowID, accept: Bool, on list: FeedListViewModel, screen index: Int) -> String? {
        guard list.source == .accounts(.requests) else {
            return "Screen \(index) is not your follow requests; push {\"route\":\"accounts\",\"list\":\"requests\"} and answer its rows."
        }
        guard let row = list.rows[id: id]?.account else {
            return "There is no follow request \(JSONLCommand.echo(id.description)) on screen \(index)."
        }
        let handle = "@" + row.author.handle
        if let answer = session.relationship(row.id)?.requestAnswer, answer.pending {
            return "The follow request of \(handle) is being \(answer.isOn ? "accepted" : "rejected") already."
        }
        guard list.answerRequest(row: id, accept: accept) else { return "The follow request of \(handle) was answered already." }
        return nil
    }
}
