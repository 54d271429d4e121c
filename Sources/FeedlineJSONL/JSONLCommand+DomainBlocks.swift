@_spi(FeedService) import Feedline

/// Domain blocks: `blockDomain` and `unblockDomain`, which name a domain as it is
/// (`"domain":"promo.example"`) or by a row (`"row":"domain:promo.example"`, an account row, a
/// post row, a notification row).
extension JSONLCommand {
    /// What `blockDomain` and `unblockDomain` take, as error sentences say it.
    static func domainUsage(_ name: String) -> String {
        "\(name) needs \"domain\": a domain such as \"promo.example\", or \"row\": a domain, account, post or notification row id such as \"domain:promo.example\", \"account:109302\" or \"post:123\"."
    }

    /// `blockDomain` (to `"value"`, true when absent) and `unblockDomain` (to false; it reads no
    /// `"value"`); `screen` is the command's `"screen"` (read by the caller, as for every list
    /// command), which only a row reads.
    ///
    /// A domain (`"domain"`, or a domain row's id) is checked here, as the session's domain block
    /// store checks it (trimmed, without a leading `@`, lower-cased; labels of letters, digits and
    /// `-`, a port allowed); a handle is refused with its domain. An account, post or notification
    /// row is the driver's to find: which screen has it, and whose account it shows.
    static func domainBlock(_ name: String, _ value: JSONLValue, screen: Int?) -> Result<Action, FieldProblem> {
        var wanted = name == "blockDomain"
        if wanted, let field = value["value"] {
            guard case .bool(let flag) = field else {
                return .failure(FieldProblem(message: "\(name): \"value\" is true or false, not \(echo(field.json))."))
            }
            wanted = flag
        }
        let domainField = value["domain"], rowField = value["row"]
        if domainField != nil, rowField != nil {
            return .failure(FieldProblem(message: "\(name) takes \"domain\" or \"row\", not both."))
        }
        if let domainField {
            guard let text = domainField.string, !text.isEmpty else { return .failure(FieldProblem(message: domainUsage(name))) }
            return domain(name, text).map { .domainBlock(.domain($0), value: wanted, screen: screen) }
        }
        guard let text = rowField?.string, !text.isEmpty, let row = RowID(text) else {
            return .failure(FieldProblem(message: domainUsage(name)))
        }
        switch row {
        case .domain(let domain):
            return self.domain(name, domain).map { .domainBlock(.domain($0), value: wanted, screen: screen) }
        case .account, .post, .notification, .conversation:
            return .success(.domainBlock(.row(row), value: wanted, screen: screen))
        case .tag:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a hashtag row, not an account or a domain."))
        case .list:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a list row, not an account or a domain."))
        case .filter:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a filter row, not an account or a domain."))
        case .announcement:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is an announcement row, not an account or a domain."))
        case .scheduled:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a scheduled post's row, not an account or a domain."))
        case .notificationRequest:
            return .failure(FieldProblem(message: "\(name): \(echo(text)) is a filtered notifications request's row, not an account or a domain."))
        case .gap:
            return .failure(FieldProblem(message: domainUsage(name)))
        }
    }

    /// `text` as the domain block store keys it, when it is a domain; else why not: a handle
    /// (`@user@host`, `user@host`) says which domain it is on.
    private static func domain(_ name: String, _ text: String) -> Result<String, FieldProblem> {
        let key = DomainBlockStore.key(text)
        if DomainBlockStore.isDomain(key) { return .success(key) }
        if let host = DomainBlockStore.domain(ofHandle: key), DomainBlockStore.isDomain(host) {
            return .failure(FieldProblem(message: "\(name): \(echo("@" + key)) is a handle, not a domain; its domain is \(echo(host))."))
        }
        return .failure(FieldProblem(message: "\(name): \(echo(text)) is not a domain; a domain is a host name such as \"promo.example\"."))
    }
}
