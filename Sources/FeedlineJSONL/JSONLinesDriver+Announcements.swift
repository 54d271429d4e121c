@_spi(FeedService) import Feedline
import Foundation

/// The instance's announcements: `readAnnouncement` acts on the session's one store of reads, so
/// every announcements screen shows the row read at once (a `changes` message before the `ok`);
/// a refusal later shows it unread again, and the `outcome` message carries the server's
/// sentence.
extension JSONLinesDriver {
    /// Marks the announcement `id` read, or every unread one (`nil`: each one's outcome answers
    /// the command `command`); the error's sentence when there is nothing to mark.
    func readAnnouncement(_ id: String?, command: JSONLValue?) -> String? {
        guard let id else {
            guard session.announcements.isLoaded else { return "The announcements are not loaded: push {\"route\":\"announcements\"} first." }
            do {
                let marked = try session.markAllAnnouncementsRead()
                if let command { for id in marked { askedBy[Self.topic(of: .announcementRead(id))] = command } }
                return nil
            } catch {
                return error.message
            }
        }
        return session.markAnnouncementRead(id)
    }
}

extension JSONLMessage {
    /// An announcement row's fields: its id, text, dates, and whether it is read (`read`,
    /// `pending` while that waits for the server, `failure`: the last refusal).
    static func announcementFields(_ announcement: Announcement, _ read: ToggleDisplay) -> [(String, JSONLValue)] {
        let date = { (value: Date?) -> JSONLValue in value.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null }
        return [
            ("announcement", .string(announcement.id)), ("text", .string(announcement.text)), ("publishedAt", date(announcement.publishedAt)),
            ("updatedAt", date(announcement.updatedAt)), ("startsAt", date(announcement.startsAt)), ("endsAt", date(announcement.endsAt)),
            ("allDay", .bool(announcement.allDay)), ("read", .bool(read.isOn)), ("pending", .bool(read.pending)), ("failure", .optional(read.failure)),
        ]
    }
}
