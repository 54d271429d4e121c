import FeedlineJSONL
import FeedlineMastodon
import FeedlineREPL

/// JSON-lines' wiring of ``AccountSessions``: what its driver says of each account's session
/// at `bye`, and the hooks `switchAccount` switches through.
extension AccountSessions {
    /// `opened` as the JSON-lines loop takes it.
    func jsonLines(_ opened: Open) -> JSONLAccountSwitching.Opened {
        let stream = configuration.stream ? SandboxStream(opened.session) : nil
        let written: (@MainActor @Sendable () -> Bool)? = opened.keeper.map { keeper in { @MainActor in keeper.unwritten() == nil } }
        return JSONLAccountSwitching.Opened(session: opened.session, keepsState: opened.keeper != nil, written: written) { stream?.commandHandled() }
    }

    /// `switchAccount`'s hooks: a name resolved as the REPL's `account NAME` resolves it, and
    /// the switch.
    func jsonLinesSwitching() -> JSONLAccountSwitching {
        JSONLAccountSwitching(
            resolve: { [weak self] name in
                guard let self, let current = self.current else { return .failure(.init("The session has ended.")) }
                let choices = self.choices(for: current.choice)
                switch choices.resolve(name) {
                case .success(let account) where account == choices.current: return .failure(.init("You are \(account) already."))
                case .success(let account): return .success(account)
                case .failure(let refusal): return .failure(.init(refusal.sentence))
                }
            },
            open: { [weak self] account in
                guard let self else { return .failure(.init("The session has ended.")) }
                switch await self.make(account) {
                case .success(let made):
                    // A note on its sign-in's scopes goes to standard error.
                    for note in made.notes { Output.complain(TerminalText(note)) }
                    return .success(self.jsonLines(made.opened))
                case .failure(let refusal):
                    return .failure(.init(refusal.sentence))
                }
            },
            begin: { [weak self] in await self?.begin() }
        )
    }
}
