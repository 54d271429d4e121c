import Feedline
import Foundation

/// A notifications route's `"kinds"`: `"mentions"`, `"favourites,boosts"`.
extension JSONLCommand {
    /// The kinds a route's `"kinds"` names: a string of filter names (`mentions`, `follows`,
    /// `favourites`, `boosts`, `polls`, `edits`, `requests`; aliases such as `favorites` and
    /// `reblogs` too), comma-separated, at least one.
    static func notificationKinds(_ field: JSONLValue) -> Result<Set<NotificationGroup.Kind>, FieldProblem> {
        let usage = "\"kinds\" is a string of \(NotificationGroup.Kind.filterNameList), comma-separated, such as \"mentions\" or \"favourites,boosts\""
        guard let text = field.string else { return .failure(FieldProblem(message: "a notifications route's " + usage + ".")) }
        var kinds: Set<NotificationGroup.Kind> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: true) {
            let word = name.trimmingCharacters(in: .whitespaces)
            guard let kind = NotificationGroup.Kind(filterName: word) else {
                return .failure(FieldProblem(message: "\"\(echo(word))\" is not a kind of notification; " + usage + "."))
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return .failure(FieldProblem(message: "a notifications route's " + usage + ".")) }
        return .success(kinds)
    }
}
