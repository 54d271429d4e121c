@_spi(FeedService) import Feedline
import Foundation

/// What the sandbox's stream delivers after a command: an event, or a change of connection.
@_spi(FeedService) public enum SandboxStreamMessage: Hashable, Sendable {
    case event(StreamEvent)
    /// The stream dropped: events until ``reconnected`` are missed (a catch-up finds them).
    case disconnected
    /// The stream is back; the front should catch up (``FeedSession/catchUp(where:)``).
    case reconnected
}

extension SandboxService {
    /// Whether the scenario has stream items (else the sandbox has no stream).
    public var streams: Bool {
        withState { !$0.scenario.stream.isEmpty }
    }

    /// What the stream delivers now that the front has handled `count` commands: the items due
    /// (``SandboxScenario/StreamItem/afterCommands``), in order, applied to the sandbox's data —
    /// new statuses join the home timeline, edits and deletes change it, notifications arrive —
    /// and turned into messages. While disconnected, items change the data but are not
    /// delivered (they are missed). No latency, no faults: a stream is not a request.
    @_spi(FeedService) public func streamMessages(afterCommands count: Int) -> [SandboxStreamMessage] {
        let now = wallClock.now()
        return withState { state in
            let due = state.pendingStream.prefix { $0.afterCommands <= count }
            state.pendingStream.removeFirst(due.count)
            var messages: [SandboxStreamMessage] = []
            for item in due {
                let events = state.deliver(item, now: now)
                switch item.kind {
                case .disconnect:
                    if state.streamConnected { messages.append(.disconnected) }
                    state.streamConnected = false
                case .reconnect:
                    if !state.streamConnected { messages.append(.reconnected) }
                    state.streamConnected = true
                default:
                    if state.streamConnected { messages += events.map(SandboxStreamMessage.event) }
                }
            }
            return messages
        }
    }
}

extension SandboxService.State {
    /// Applies a stream item to the data and returns the events it makes.
    mutating func deliver(_ item: SandboxScenario.StreamItem, now: Date) -> [StreamEvent] {
        switch item.kind {
        case .update(let statuses):
            guard (try? store.insert(statuses)) != nil else { return [] }
            // Oldest first, as a stream sends them.
            return statuses.sorted { $0.createdAt < $1.createdAt }.compactMap { status in
                store.post(status.id).map { StreamEvent.posted($0, in: .home) }
            }
        case .edit(let id, let text, let date):
            guard store.edit(id, text: text, at: date ?? now), let post = store.post(id) else { return [] }
            return [.edited(post)]
        case .delete(let id):
            return store.delete(id) ? [.deleted(PostID(id))] : []
        case .notification(let reaction):
            return react(reaction).map { [.notified($0)] } ?? []
        case .disconnect, .reconnect:
            return []
        }
    }
}
