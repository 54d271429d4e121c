@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

/// Saving reading positions to a server's markers on an injected clock: one save per window of
/// reading, conflicts sent again, what is left saved at the end within its limit.
@MainActor
@Suite("Marker sync", .timeLimit(.minutes(10)))
struct MarkerSyncTests {

    /// A server of `markers` answering marker reads and saves.
    private static func server(markers: [MarkerTimeline: ServerMarker] = [:]) -> GatedServer {
        var model = ServerModel<Post>()
        model.markers = ServerMarkers(markers)
        return GatedServer(model, answering: [.markers, .saveMarker])
    }

    /// A sync on a manual clock and a server of `markers`, its markers read.
    private func makeSync(markers: [MarkerTimeline: ServerMarker] = [:]) async throws -> (MarkerSync, ManualClock, GatedServer) {
        let clock = ManualClock()
        let service = Self.server(markers: markers)
        let sync = MarkerSync(service: service, clock: clock)
        _ = try await sync.read()
        return (sync, clock, service)
    }

    @Test("moves within a window are one save of the newest position; the next move opens the next window")
    func oneSavePerWindow() async throws {
        let (sync, clock, service) = try await makeSync()
        for id: ItemID in ["a", "b", "c"] { sync.move(.home, to: id) }
        await clock.waitForSleepers(1)
        #expect(clock.requestedSleeps == [MarkerState.interval], "one window for three moves")
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1 && service.saves.isEmpty, "nothing is saved before the window ends")
        clock.advance(by: .seconds(1))
        await service.waitForCalls(1, of: .saveMarker)
        await sync.settle()
        #expect(service.saves == ["home:c"])
        #expect(sync.state[.home].saved == "c" && sync.state.isSettled)
        sync.move(.home, to: "d")
        await clock.waitForSleepers(1)
        clock.advance(by: MarkerState.interval)
        await service.waitForCalls(2, of: .saveMarker)
        await sync.settle()
        #expect(service.saves == ["home:c", "home:d"])
    }

    @Test("a conflict is sent again after a second, up to three times; past that the position waits for the next move")
    func conflicts() async throws {
        let (sync, clock, service) = try await makeSync()
        service.failNext(2, .saveMarker, with: MarkerConflict())
        sync.move(.home, to: "a")
        await clock.waitForSleepers(1)
        clock.advance(by: MarkerState.interval)
        for attempt in 2...3 {
            await clock.waitForSleepers(1)
            #expect(clock.requestedSleeps.last == MarkerState.conflictDelay)
            #expect(service.saves.count == attempt - 1)
            clock.advance(by: MarkerState.conflictDelay)
        }
        await service.waitForCalls(3, of: .saveMarker)
        await sync.settle()
        #expect(service.saves == ["home:a", "home:a", "home:a"])
        #expect(sync.state[.home].saved == "a")

        // Conflicts every time: three attempts, then the position stays wanted.
        service.failNext(10, .saveMarker, with: MarkerConflict())
        sync.move(.home, to: "b")
        await clock.waitForSleepers(1)
        clock.advance(by: MarkerState.interval)
        for _ in 1..<MarkerState.conflictAttempts {
            await clock.waitForSleepers(1)
            clock.advance(by: MarkerState.conflictDelay)
        }
        await service.waitForCalls(6, of: .saveMarker)
        await sync.settle()
        #expect(service.saves.count == 6)
        #expect(sync.state[.home].wanted == "b" && sync.state[.home].saved == "a" && sync.state.requests.isEmpty)
    }

    @Test("what the server holds is not saved again; a position it does not hold is")
    func readFirst() async throws {
        let (sync, _, service) = try await makeSync(markers: [.home: ServerMarker(id: "a"), .notifications: ServerMarker(id: "n9")])
        #expect(sync.state[.home].saved == "a" && sync.state[.notifications].saved == "n9")
        sync.move(.home, to: "a")
        sync.move(.notifications, to: "n9")
        #expect(sync.state.requests.isEmpty)
        await sync.finish(waitingAtMost: .seconds(2))
        #expect(service.saves.isEmpty)
    }

    @Test("finish saves an open window at once, and a failed save once more")
    func finishSaves() async throws {
        let (sync, clock, service) = try await makeSync()
        service.failNext(1, .saveMarker, with: ServerUnreachable())
        sync.move(.notifications, to: "n1")
        await clock.waitForSleepers(1)
        clock.advance(by: MarkerState.interval)
        await service.waitForCalls(1, of: .saveMarker)
        await sync.settle()
        #expect(sync.state[.notifications].wanted == "n1" && sync.state[.notifications].saved == nil, "a failed save leaves it wanted")
        sync.move(.home, to: "h1")
        await clock.waitForSleepers(1)
        // The window is still open: finishing saves both at once, without the clock moving.
        await sync.finish(waitingAtMost: .seconds(2))
        #expect(Set(service.saves.dropFirst()) == ["home:h1", "notifications:n1"])
        #expect(sync.state[.home].saved == "h1" && sync.state[.notifications].saved == "n1")
    }

    @Test("finish waits for a slow save at most its limit, on the clock")
    func finishWaitsAtMost() async throws {
        let (sync, clock, service) = try await makeSync()
        service.hold(.saveMarker)
        sync.move(.home, to: "a")
        await clock.waitForSleepers(1)
        let finished = Task { @MainActor in await sync.finish(waitingAtMost: .seconds(2)) }
        await service.waitForCalls(1, of: .saveMarker)
        // The save is held; finish sleeps for its limit (the window's sleep was cancelled).
        await clock.waitForSleepers(1)
        #expect(clock.requestedSleeps.last == .seconds(2))
        clock.advance(by: .seconds(2))
        await finished.value
        #expect(sync.state[.home].saved == nil, "the held save has not answered")
        service.answerHeld(at: 0)
    }

    @Test("nothing is saved before the markers are read, nor ever when they cannot be; a position behind the server's is never saved")
    func neverBehind() async throws {
        let clock = ManualClock()
        let service = Self.server(markers: [.home: ServerMarker(id: "m5")])
        let sync = MarkerSync(service: service, clock: clock)
        // Before the read: wanted, but no window opens.
        sync.move(.home, to: "m3")
        #expect(sync.state.requests.isEmpty && sync.state[.home].wanted == "m3")
        // The server holds m5: m3 is behind it, so it is dropped; m4 is ignored; m6 is saved.
        _ = try await sync.read()
        #expect(sync.state[.home].wanted == "m5" && sync.state.requests.isEmpty)
        sync.move(.home, to: "m4")
        #expect(sync.state.requests.isEmpty)
        sync.move(.home, to: "m6")
        sync.move(.home, to: "m5")
        #expect(sync.state[.home].wanted == "m6", "the wanted position never goes back either")
        await sync.finish(waitingAtMost: .seconds(2))
        #expect(service.saves == ["home:m6"])

        // Markers never read (the read failed): nothing is ever saved, not even at the end.
        let unread = MarkerSync(service: service, clock: clock)
        unread.move(.notifications, to: "n1")
        await unread.finish(waitingAtMost: .seconds(2))
        #expect(service.saves == ["home:m6"])
    }
}

extension GatedServer {
    /// Every marker save asked for, as `timeline:id`, in order.
    fileprivate var saves: [String] { calls(.saveMarker).map { String($0.description.dropFirst("saveMarker(".count).dropLast()) } }
}
