/// One event of a `text/event-stream` (server-sent events), as the WHATWG HTML standard's
/// event stream interpretation dispatches it.
package struct ServerSentEvent: Hashable, Sendable, CustomStringConvertible {
    /// The `event:` field, or `message` when the event named none.
    package var type: String
    /// The `data:` lines joined with line feeds (without a trailing one).
    package var data: String
    /// The last `id:` seen on the stream up to this event (empty when none).
    package var lastEventID: String

    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// `update: {"id":…` with the data cut at 60 characters: for test messages.
    package var description: String {
        let line = data.replacingOccurrences(of: "\n", with: "\\n")
        return "\(type): " + (line.count > 60 ? String(line.prefix(60)) + "…" : line)
    }
}
