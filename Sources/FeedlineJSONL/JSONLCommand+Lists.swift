import Feedline
import Foundation

/// Lists: `createList`, `renameList`, `deleteList`, `addToList` and `removeFromList`, which name
/// a list by its id (`"list":"1"`, as a list row's `"list"` has it) and an account by its id
/// (`"account":"109302"`, as an account row's or a post's author has it).
extension JSONLCommand {
    /// A change of the lists, as the driver hands it to the session's list store.
    public enum ListChange: Sendable, Equatable {
        case create(title: String)
        case rename(list: String, title: String)
        case delete(list: String)
        /// Add (`true`) or remove the account.
        case membership(list: String, account: AccountID, add: Bool)
    }

    static let listCommandNames: Set<String> = ["createList", "renameList", "deleteList", "addToList", "removeFromList"]

    static func listChange(_ name: String, _ value: JSONLValue) -> Result<Action, FieldProblem> {
        func text(_ key: String, _ usage: String) -> Result<String, FieldProblem> {
            guard let field = value[key] else { return .failure(FieldProblem(message: "\(name) needs \(usage).")) }
            guard let text = field.string, !text.allSatisfy(\.isWhitespace) else {
                return .failure(FieldProblem(message: "\(name): \"\(key)\" is \(usage.drop { $0 != ":" }.dropFirst(2)), not \(echo(field.json))."))
            }
            return .success(text)
        }
        let listUsage = "\"list\": a list's id such as \"1\" (a list row's \"list\")"
        let titleUsage = "\"title\": a list's name such as \"Birders\""
        let accountUsage = "\"account\": an account's id such as \"109302\" (an account row's \"account\")"
        switch name {
        case "createList":
            return text("title", titleUsage).map { .listChange(.create(title: $0)) }
        case "renameList":
            return text("list", listUsage).flatMap { list in text("title", titleUsage).map { .listChange(.rename(list: list, title: $0)) } }
        case "deleteList":
            return text("list", listUsage).map { .listChange(.delete(list: $0)) }
        default:
            return text("list", listUsage).flatMap { list in
                text("account", accountUsage).flatMap { account in
                    if account.contains("@") {
                        return .failure(FieldProblem(
                            message: "\(name): \(echo(account)) is a handle, not an account id; push {\"route\":\"feed\",\"feed\":\"account:\(echo(account))\"} first and use the \"account\" of its profile message."
                        ))
                    }
                    return .success(.listChange(.membership(list: list, account: AccountID(account), add: name == "addToList")))
                }
            }
        }
    }
}
