import Feedline

/// `account` and `account NAME`: the stored accounts, and a switch to one of them. The driver
/// only resolves the name (``AccountChoices/resolve(_:)``) and sets ``REPLDriver/accountAsked``;
/// the runner closes this driver and goes on with the session the front opens.
extension REPLDriver {
    func runAccount(_ name: String?) {
        let choices = options.accounts
        guard let name else { return listAccounts(choices) }
        switch choices.resolve(name) {
        case .failure(let refusal):
            refuse(refusal.sentence)
        case .success(let account) where account == choices.current:
            say("You are \(account) already.")
        case .success(let account):
            guard options.openAccount != nil else { return refuse("This session cannot switch accounts; start feedline --account \(account).") }
            accountAsked = account
        }
    }

    /// The stored accounts, the current one marked `*`, and how to switch.
    private func listAccounts(_ choices: AccountChoices) {
        if let unavailable = choices.unavailable { return say(unavailable) }
        // One name a line, as feedline accounts prints them (a name is never wrapped).
        emit(choices.names.map { ($0 == choices.current ? "* " : "  ") + $0 })
        // On the sandbox one identity is named you: the mark is said in words there.
        let marked = choices.sandboxOwn == nil ? "* you. " : "* is the identity you are. "
        say((choices.current == nil ? "This session is signed in as none of them. " : marked)
            + "account NAME switches (the start of a name will do); the screens start again on its home.")
    }

    /// The runner's step after a line that asked for another account (``accountAsked``): opens
    /// the account through ``Options/openAccount`` with this driver's options (the returned ones
    /// keep its `live`); then ends this driver's output (``leave(for:)``), stops following the
    /// session, lets the front finish it (``AccountSwitch/begin``) and writes the notes. The
    /// runner goes on with the switch returned. `nil` when no switch was asked, or when the
    /// account could not be opened: its sentence is written and this driver goes on, its session
    /// and screens untouched.
    func switchAsked(write: @MainActor (TerminalText) -> Void) async -> AccountSwitch? {
        guard let account = accountAsked, let open = options.openAccount else { return nil }
        accountAsked = nil
        switch await open(account, options) {
        case .success(var next):
            await leave(for: account)
            finish()
            await next.begin()
            next.options.live = options.live
            for note in next.notes { write(TerminalText(lines: [TerminalText(note)])) }
            return next
        case .failure(let refusal):
            write(TerminalText(lines: [TerminalText(refusal.sentence)]))
            return nil
        }
    }
}
