@_spi(FeedService) import Feedline
import Foundation

/// `scheduled`, `scheduled edit N TIME`, `scheduled cancel N`, and how a scheduled time reads.
extension REPLDriver {
    func runScheduled(_ command: ScheduledCommand) {
        switch command {
        case .show:
            session.navigator.push(.list(.scheduled))
        case .edit(let number, let time):
            guard let post = scheduledPost(number) else { return }
            do {
                let date = try session.reschedule(post.id, at: time)
                say("Moving \(Self.excerpt(post.text)) to \(moment(date))…")
            } catch {
                refuse(error.message)
            }
        case .cancel(let number):
            guard let post = scheduledPost(number) else { return }
            do {
                try session.cancelScheduled(post.id)
                say("Cancelling \(Self.excerpt(post.text)), scheduled for \(moment(post.scheduledAt))…")
            } catch {
                refuse(error.message)
            }
        }
    }

    /// The scheduled post at row `number` of the scheduled screen on top, or `nil` (said why).
    private func scheduledPost(_ number: Int) -> ScheduledPost? {
        guard case .list(let entry)? = stack.last, entry.list.source == .scheduled else {
            refuse("A row number names a scheduled post on the scheduled screen; type scheduled first.")
            return nil
        }
        guard case .row(let row) = entry.screen.viewport.lookup(number, in: entry.list.rows), let post = row.scheduled else {
            refuse("There is no scheduled post at row \(number).")
            return nil
        }
        return post
    }

    /// `date` as the REPL shows moments: `1 Dec 2026 09:00 CET`, in the session's time zone.
    func moment(_ date: Date) -> String {
        ProfileRenderer(width: 80, timeZone: session.clock.timeZone).moment(date)
    }
}
