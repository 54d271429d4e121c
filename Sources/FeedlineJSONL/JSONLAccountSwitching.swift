import Feedline

/// What `switchAccount` needs of the front: the driver cannot open a session on another
/// account itself (that is the front's wiring: a service, saved state, live updates).
public struct JSONLAccountSwitching: Sendable {
    /// A session opened on the account switched to, with what the driver says of it at `bye`.
    public struct Opened: Sendable {
        /// The session now in use.
        public var session: FeedSession
        /// Whether it keeps state for the next start (see ``JSONLinesSession/run(session:lines:keepsState:written:afterCommand:switching:write:)``).
        public var keepsState: Bool
        /// Whether what it keeps is written now.
        public var written: (@MainActor @Sendable () -> Bool)?
        /// Runs after each command line (the sandbox's scripted stream).
        public var afterCommand: @MainActor @Sendable () -> Void

        /// A session as the front opened it.
        public init(
            session: FeedSession, keepsState: Bool, written: (@MainActor @Sendable () -> Bool)?, afterCommand: @escaping @MainActor @Sendable () -> Void = {}
        ) {
            self.session = session
            self.keepsState = keepsState
            self.written = written
            self.afterCommand = afterCommand
        }
    }

    /// Why there is no switch: one sentence (the `error` message).
    public struct Refusal: Error, Sendable {
        /// The sentence.
        public var message: String

        /// A refusal saying `message`.
        public init(_ message: String) { self.message = message }
    }

    /// The account a name names (`kemi@mastodon.social`, or the start of only one), or the
    /// sentence why none: unknown, ambiguous, the account in use, a session that cannot switch.
    public var resolve: @MainActor @Sendable (_ name: String) -> Result<String, Refusal>
    /// Opens the account's session beside the one in use, which ``begin`` finishes; a failure
    /// (the account cannot be opened) leaves the one in use untouched.
    public var open: @MainActor @Sendable (_ account: String) async -> Result<Opened, Refusal>
    /// Called once the driver of the session left has said `bye`: the front finishes that
    /// session (its state written, its effects stopped) and puts the one ``open`` opened in use.
    public var begin: @MainActor @Sendable () async -> Void

    /// Switching through these three.
    public init(
        resolve: @escaping @MainActor @Sendable (_ name: String) -> Result<String, Refusal>,
        open: @escaping @MainActor @Sendable (_ account: String) async -> Result<Opened, Refusal>,
        begin: @escaping @MainActor @Sendable () async -> Void = {}
    ) {
        self.resolve = resolve
        self.open = open
        self.begin = begin
    }
}
