/// Reports: a post attached to a report shows the report's state on every row and detail of it.
extension PostStore {
    /// Shows `display` (the report's state; `nil`: none) on every row and detail of each post
    /// `ids` names (their originals). Posts the store does not know are skipped.
    package func setReported(_ ids: some Sequence<PostID>, _ display: ToggleDisplay?) {
        for id in ids {
            guard let originalID = originalID(of: id), let entry = entries[originalID], entry.reported != display else { continue }
            let before = (entry.post, entry.display)
            entry.reported = display
            changed(originalID, entry, before: before)
        }
    }
}
