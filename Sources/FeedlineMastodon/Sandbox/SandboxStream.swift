@_spi(FeedService) import Feedline

/// The sandbox's scripted stream, delivered after each command a front handles: events go to
/// the session, a drop and a reconnect to its stream state, and a reconnect catches up on what
/// was missed. Everything runs on the main actor, between commands, so a script with stream
/// events gives the same transcript every run.
@MainActor
public final class SandboxStream {
    private let sandbox: SandboxService
    private weak var session: FeedSession?
    private var commands = 0

    /// The stream of `session`'s sandbox, or `nil` when the session is not on a sandbox whose
    /// scenario has stream items. The session is live from the start.
    public init?(_ session: FeedSession) {
        guard let sandbox = session.service as? SandboxService, sandbox.streams else { return nil }
        self.sandbox = sandbox
        self.session = session
        session.streamStateChanged(.live)
    }

    /// A command was handled: delivers what is due.
    public func commandHandled() {
        guard let session else { return }
        commands += 1
        for message in sandbox.streamMessages(afterCommands: commands) {
            switch message {
            case .event(let event):
                session.apply(event)
            case .disconnected:
                session.streamStateChanged(.reconnecting(after: .zero, attempt: 1))
            case .reconnected:
                session.streamStateChanged(.live)
                session.catchUp { $0 == .feed(.home) || $0 == .notifications }
            }
        }
    }
}
