@_spi(FeedService) import Feedline

extension JSONLCommand {
    /// `report`: `"account"` (an account id, as relationship commands take it), `"posts"` (post
    /// ids of theirs, optional), `"comment"` (optional, at most 1,000 characters), `"forward"`
    /// (true or false, false when absent), `"category"` (`spam`, `legal`, `violation` or
    /// `other`, `other` when absent) and `"rules"` (the ids `rules` replies with; only with
    /// `violation`, which needs at least one).
    static func report(_ value: JSONLValue) -> Result<AccountReport, FieldProblem> {
        guard let text = value["account"]?.string, !text.isEmpty else {
            return .failure(FieldProblem(message: "report needs \"account\": an account id string."))
        }
        if let problem = handleProblem("report", text) ?? rowProblem("report", text) { return .failure(problem) }
        var report = AccountReport(account: AccountID(text))
        switch strings("report", "posts", value["posts"]) {
        case .success(let posts): report.posts = posts.map { PostID($0) }
        case .failure(let problem): return .failure(problem)
        }
        switch strings("report", "rules", value["rules"]) {
        case .success(let rules): report.rules = rules
        case .failure(let problem): return .failure(problem)
        }
        if let field = value["comment"], field != .null {
            guard let comment = field.string else { return .failure(FieldProblem(message: "report: \"comment\" is a string, not \(echo(field.json)).")) }
            guard comment.count <= 1_000 else {
                return .failure(FieldProblem(message: "report: \"comment\" is \(comment.count) characters; moderators read at most 1000."))
            }
            report.comment = comment
        }
        if let field = value["forward"] {
            guard case .bool(let forward) = field else { return .failure(FieldProblem(message: "report: \"forward\" is true or false, not \(echo(field.json)).")) }
            report.forward = forward
        }
        if let field = value["category"] {
            let names = ReportCategory.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            guard let name = field.string, let category = ReportCategory(rawValue: name) else {
                return .failure(FieldProblem(message: "report: \"category\" is one of \(names), not \(echo(field.json))."))
            }
            report.category = category
        }
        if report.refusal != nil {
            let sentence = report.rules.isEmpty
                ? "report: \"category\":\"violation\" names the rules broken in \"rules\" (their ids, as rules replies)."
                : "report: \"rules\" go only with \"category\":\"violation\" (this report is \(report.category.rawValue))."
            return .failure(FieldProblem(message: sentence))
        }
        return .success(report)
    }

    /// An optional list of non-empty strings, without repeats.
    private static func strings(_ name: String, _ key: String, _ field: JSONLValue?) -> Result<[String], FieldProblem> {
        guard let field, field != .null else { return .success([]) }
        guard case .array(let list) = field else {
            return .failure(FieldProblem(message: "\(name): \"\(key)\" is a list of id strings, not \(echo(field.json))."))
        }
        var values: [String] = []
        for item in list {
            guard let text = item.string, !text.isEmpty else {
                return .failure(FieldProblem(message: "\(name): \(echo(item.json)) in \"\(key)\" is not an id string."))
            }
            if !values.contains(text) { values.append(text) }
        }
        return .success(values)
    }
}
