@_spi(FeedService) import Feedline

/// Your filters: the commands change the session's one filter store (the filters screen and
/// every list of posts follow at once); how each ends is an `outcome` message.
extension JSONLinesDriver {
    /// Carries out a change of your filters; the error's sentence when the store refuses it at
    /// once. A filter made is answered under its local key: `id`, the command's, is kept as its asker.
    func carryOut(filter change: JSONLCommand.FilterChange, id: JSONLValue?) -> String? {
        do {
            switch change {
            case .create(let fields):
                let blank = PostFilter(title: "", contexts: Set(FilterContext.allCases), action: .warn)
                let filter = fields.applied(to: blank, now: session.clock.now())
                let key = try session.createFilter(filter)
                if let id { askedBy[Self.topic(of: .filter(key, title: nil, was: nil))] = id }
            case .update(let filterID, let fields):
                guard let shown = session.filter(filterID) else {
                    return "There is no filter \(JSONLCommand.echo(filterID)) the session knows; push {\"route\":\"filters\"} first."
                }
                try session.updateFilter(filterID, to: fields.applied(to: shown, now: session.clock.now()))
            case .delete(let filterID):
                try session.deleteFilter(filterID)
            }
        } catch {
            return error.message
        }
        return nil
    }
}
