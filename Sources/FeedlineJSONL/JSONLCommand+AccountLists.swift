import Feedline

/// Lists of accounts and search: `search` (a `push` of a search route, as `open` is of a post
/// route), and `accept` / `reject`, which answer a follow request an account row shows.
extension JSONLCommand {
    /// What an accounts route's `"list"` may be, as error sentences say it.
    static let accountListUsage = "followers:ID, following:ID, endorsed:ID (an account id, or @user@host), mutes, blocks, requests, members:LIST_ID, favourited-by:POST_ID or boosted-by:POST_ID"

    /// What `"query"` is, as error sentences say it.
    static let queryUsage = "\"query\": what to look for, a string that is not blank, such as \"birds\", \"#swift\" or \"@kemi@fieldnotes.science\""

    /// `search`, `accept` and `reject`; `screen` is the command's `"screen"` (read by the caller,
    /// as for every list command).
    ///
    /// `accept` and `reject` name an account row (`"row":"account:ID"`), as `openGap` names a
    /// gap row: which screen has it, and whether it is a follow request, is the driver's to check.
    static func accountLists(_ name: String, _ value: JSONLValue, screen: Int?) -> Result<Action, FieldProblem> {
        guard name != "search" else {
            guard let query = searchQuery(value["query"]) else { return .failure(FieldProblem(message: "search needs \(queryUsage).")) }
            return .success(.push(.list(.search(query))))
        }
        let usage = "\(name) needs \"row\": an account row id such as \"account:109302\" (a row of {\"route\":\"accounts\",\"list\":\"requests\"})."
        guard let text = value["row"]?.string, !text.isEmpty, let row = RowID(text) else { return .failure(FieldProblem(message: usage)) }
        switch row {
        case .account:
            return .success(.answerRequest(row, accept: name == "accept", screen: screen))
        case .tag:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a hashtag row, not an account; a follow request is an account row such as \"account:109302\"."))
        case .post, .gap, .notification, .domain, .conversation, .list, .filter, .announcement, .scheduled, .notificationRequest:
            return .failure(FieldProblem(message: usage))
        }
    }

    /// A search route's or command's `"query"`: a string that is not blank, kept as given
    /// (the server reads `#tag`, `@user@host` and addresses); `nil` for anything else.
    static func searchQuery(_ field: JSONLValue?) -> String? {
        guard let query = field?.string, !query.allSatisfy(\.isWhitespace) else { return nil }
        return query
    }
}
