@_spi(FeedService) import Feedline

/// The instance's announcements: `readAnnouncement`, which names one by its id
/// (`"announcement":"8"`) or by its row (`"row":"announcement:8"`), or every unread one
/// (`"all":true`).
extension JSONLCommand {
    /// `readAnnouncement`: exactly one of `"announcement"`, `"row"` and `"all":true`.
    static func readAnnouncement(_ value: JSONLValue) -> Result<Action, FieldProblem> {
        let usage = "readAnnouncement needs \"announcement\": an announcement's id such as \"8\", \"row\": an announcement row id such as \"announcement:8\", or \"all\":true."
        let idField = value["announcement"], rowField = value["row"], allField = value["all"]
        guard [idField, rowField, allField].compactMap({ $0 }).count == 1 else { return .failure(FieldProblem(message: usage)) }
        if let allField {
            guard allField == .bool(true) else { return .failure(FieldProblem(message: usage)) }
            return .success(.readAnnouncement(nil))
        }
        if let idField {
            guard let id = idField.string, !id.isEmpty else { return .failure(FieldProblem(message: usage)) }
            return .success(.readAnnouncement(id))
        }
        guard let text = rowField?.string, !text.isEmpty, let row = RowID(text) else { return .failure(FieldProblem(message: usage)) }
        guard case .announcement(let id) = row else {
            return .failure(FieldProblem(message: "readAnnouncement: \(echo(text)) is not an announcement row; an announcement row id is such as \"announcement:8\"."))
        }
        return .success(.readAnnouncement(id))
    }
}
