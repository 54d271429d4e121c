import Feedline
import Foundation

/// Followed hashtags: `followTag` and `unfollowTag`, which name a hashtag as it is
/// (`"tag":"birds"`, `"tag":"#Birds"`) or by its row (`"row":"tag:birds"`).
extension JSONLCommand {
    /// What `followTag` and `unfollowTag` take, as error sentences say it.
    static func tagUsage(_ name: String) -> String {
        "\(name) needs \"tag\": a hashtag's name such as \"birds\" or \"#birds\", or \"row\": a hashtag row id such as \"tag:birds\"."
    }

    /// `followTag` (to `"value"`, true when absent) and `unfollowTag` (to false; it reads no
    /// `"value"`).
    ///
    /// The hashtag is checked here as the session's tag store checks it (trimmed, without a
    /// leading `#`, lower-cased; letters, digits and `_`, 1–100 of them), so the driver only
    /// hands the store a key. A hashtag row's id names its hashtag, so no screen needs to show
    /// it (the command reads no `"screen"`); an account row is refused with the command that
    /// follows the account.
    static func tagFollow(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        var wanted = name == "followTag"
        if wanted, let field = value["value"] {
            guard case .bool(let flag) = field else {
                return .failure(FieldProblem(message: "\(name): \"value\" is true or false, not \(echo(field.json))."))
            }
            wanted = flag
        }
        let tagField = value["tag"], rowField = value["row"]
        if tagField != nil, rowField != nil {
            return .failure(FieldProblem(message: "\(name) takes \"tag\" or \"row\", not both."))
        }
        if let tagField {
            guard let text = tagField.string, !text.isEmpty else { return .failure(FieldProblem(message: tagUsage(name))) }
            return tag(name, text).map { .tagFollow($0, value: wanted) }
        }
        guard let text = rowField?.string, !text.isEmpty, let row = RowID(text) else {
            return .failure(FieldProblem(message: tagUsage(name)))
        }
        switch row {
        case .tag(let tag):
            return self.tag(name, tag).map { .tagFollow($0, value: wanted) }
        case .account(let account):
            let follow = name == "followTag" ? "follow" : "unfollow"
            return .failure(FieldProblem(
                message: "\(name): \(echo(text)) is an account row, not a hashtag; {\"cmd\":\"\(follow)\",\"account\":\"\(echo(account.rawValue))\"} \(follow)s the account."
            ))
        case .post, .gap, .notification, .domain, .conversation, .list, .filter, .announcement, .scheduled, .notificationRequest:
            return .failure(FieldProblem(message: tagUsage(name)))
        }
    }

    /// `text` as the tag store keys it, when it can be a hashtag's name; else why not.
    private static func tag(_ name: String, _ text: String) -> Result<String, FieldProblem> {
        let key = TagStore.key(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard TagStore.isTag(key) else {
            return .failure(FieldProblem(
                message: "\(name): \(echo(text)) is not a hashtag; a hashtag's name is letters, digits and underscores, such as \"birds\"."
            ))
        }
        return .success(key)
    }
}
