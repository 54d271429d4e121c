import FeedlineMastodon
import FeedlineREPL
import FeedlineState

/// The REPL's wiring of ``AccountSessions``: a driver's options for each account's session,
/// with the hook `account NAME` switches through.
extension AccountSessions {
    /// `options` for a driver on `opened`: its greeting, its replies' reason, where its state
    /// is kept, the sandbox's stream, the accounts it may switch to.
    func options(_ options: REPLDriver.Options, for opened: Open) -> REPLDriver.Options {
        var options = options
        options.sourceSummary = opened.choice.summary
        options.missingRepliesReason = opened.choice.isRemote ? DetailRenderer.serverMissingRepliesReason : DetailRenderer.sandboxMissingRepliesReason
        if let keeper = opened.keeper {
            options.keeping = .file(unwritten: { keeper.unwritten() })
        } else if configuration.state.directory(interactive: interactive) != nil, SessionKeeper.keepsState(of: opened.session) {
            options.keeping = .unavailable
        } else {
            options.keeping = .nothing
        }
        options.afterCommand = nil
        if configuration.stream, let stream = SandboxStream(opened.session) { options.afterCommand = { stream.commandHandled() } }
        options.accounts = choices(for: opened.choice)
        options.openAccount = { [weak self] account, options in
            guard let self else { return .failure(AccountRefusal("The session has ended.")) }
            return await self.make(account).map { made in
                AccountSwitch(
                    session: made.opened.session, options: self.options(options, for: made.opened), notes: made.notes,
                    begin: { [weak self] in await self?.begin() }
                )
            }
        }
        return options
    }
}
