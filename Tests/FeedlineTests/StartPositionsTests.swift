@_spi(FeedService) import Feedline
import Foundation
import Testing

/// Where a session starts reading: every event in every phase of ``StartPositions``, each
/// expected state written as a mutation of the old one.
@Suite("Start positions")
struct StartPositionsTests {
    /// Ids compare as numbers (the server's ids grow with time), as Mastodon's do.
    static func byNumber(_ id: ItemID, _ other: ItemID) -> Bool? {
        guard let a = Int(id.rawValue), let b = Int(other.rawValue) else { return nil }
        return a > b
    }

    static func post(_ number: Int) -> Post { makePost("\(number)", minutesAgo: Double(100 - number)) }
    /// Posts 20 down to 11, read up to 15.
    static let saved = SavedList(entries: (11...20).reversed().map { .post(post($0)) }, older: PageCursor("11"), position: ReadingPosition(post(15)))

    enum Phase: String, CaseIterable, CustomTestStringConvertible {
        case empty, loaded, loadedNothing, wantingPost, shown, shownWanting
        var testDescription: String { rawValue }
    }

    static func state(_ phase: Phase) -> StartPositions {
        var state = StartPositions()
        func send(_ event: StartEvent) { state.reduce(event, isNewer: byNumber) }
        switch phase {
        case .empty: break
        case .loaded: send(.loaded(home: saved, notifications: ReadingPosition(id: "5", createdAt: .distantPast)))
        case .loadedNothing: send(.loaded(home: nil, notifications: nil))
        case .wantingPost: state = Self.state(.loaded); state.reduce(.markersRead([.home: ServerMarker(id: "30")], homeKnown: nil), isNewer: byNumber)
        case .shown: state = Self.state(.loaded); state.reduce(.homeShown, isNewer: byNumber)
        case .shownWanting: state = Self.state(.shown); state.reduce(.markersRead([.home: ServerMarker(id: "40")], homeKnown: nil), isNewer: byNumber)
        }
        return state
    }

    func expect(
        _ phase: Phase, _ event: StartEvent, sourceLocation: SourceLocation = #_sourceLocation, _ mutate: (inout StartPositions) -> Void = { _ in }
    ) {
        let before = Self.state(phase)
        var actual = before
        actual.reduce(event, isNewer: Self.byNumber)
        var expected = before
        mutate(&expected)
        if actual != expected {
            let fields = zip(Mirror(reflecting: expected).children, Mirror(reflecting: actual).children)
                .filter { "\($0.0.value)" != "\($0.1.value)" }
                .map { "  \($0.0.label ?? "?"): expected \($0.0.value), got \($0.1.value)" }
            Issue.record("\(event) in \(phase):\n\(fields.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }

    @Test("loaded, in every phase: takes what was saved")
    func loaded() {
        for phase in Phase.allCases {
            expect(phase, .loaded(home: Self.saved, notifications: nil)) {
                $0.home = Self.saved
                $0.notifications = nil
                $0.savedNotifications = nil
            }
        }
    }

    @Test("a home marker before the list is shown: on the position nothing; above it moves there; below or older nothing; unknown and newer asks for its post")
    func homeMarkerBeforeShown() {
        expect(.loaded, .markersRead([.home: ServerMarker(id: "15")], homeKnown: nil))
        expect(.loaded, .markersRead([.home: ServerMarker(id: "18")], homeKnown: nil)) { $0.home?.position = ReadingPosition(Self.post(18)) }
        expect(.loaded, .markersRead([.home: ServerMarker(id: "12")], homeKnown: nil))
        // Saved (updated) before the saved position's post was written: older.
        expect(.loaded, .markersRead([.home: ServerMarker(id: "30", updatedAt: Self.post(15).createdAt)], homeKnown: nil))
        expect(.loaded, .markersRead([.home: ServerMarker(id: "30")], homeKnown: nil)) { $0.wantedPost = "30" }
        // Nothing saved: the marker's post is asked for.
        expect(.loadedNothing, .markersRead([.home: ServerMarker(id: "30")], homeKnown: nil)) { $0.wantedPost = "30" }
        expect(.empty, .markersRead([.home: ServerMarker(id: "30")], homeKnown: nil)) { $0.wantedPost = "30" }
    }

    @Test("a home marker after the list is shown only moves the position: at once when the list has the post, else its post is asked for")
    func homeMarkerAfterShown() {
        expect(.shown, .markersRead([.home: ServerMarker(id: "18")], homeKnown: Self.post(18))) { $0.lateHome = ReadingPosition(Self.post(18)) }
        expect(.shown, .markersRead([.home: ServerMarker(id: "40")], homeKnown: nil)) { $0.wantedPost = "40" }
        expect(.shownWanting, .markersRead([.home: ServerMarker(id: "41")], homeKnown: Self.post(41))) { $0.lateHome = ReadingPosition(Self.post(41)) }
    }

    @Test("a notifications marker is taken when further on by the server's ids, in every phase")
    func notificationsMarker() {
        for phase in Phase.allCases {
            let known = Self.state(phase).notifications
            expect(phase, .markersRead([.notifications: ServerMarker(id: "9")], homeKnown: nil)) {
                if known.map({ StartPositions.isFurther(ReadingPosition(id: "9", createdAt: .distantPast), than: $0, isNewer: Self.byNumber) }) ?? true {
                    $0.notifications = ReadingPosition(id: "9", createdAt: .distantPast)
                }
            }
        }
        expect(.loaded, .markersRead([.notifications: ServerMarker(id: "2")], homeKnown: nil))
    }

    @Test("the marker's post: before shown and newer, the list starts from it alone, a server copy; older, the saved list stands; once shown, the position only")
    func markerPostFetched() {
        let newer = Self.post(30)
        expect(.wantingPost, .markerPostFetched(newer)) {
            $0.wantedPost = nil
            $0.home = SavedList(entries: [.post(newer)], older: PageCursor("30"), position: ReadingPosition(newer))
            $0.fresh = ["30"]
        }
        expect(.wantingPost, .markerPostFetched(Self.post(14))) { $0.wantedPost = nil }
        expect(.shownWanting, .markerPostFetched(Self.post(40))) {
            $0.wantedPost = nil
            $0.lateHome = ReadingPosition(Self.post(40))
        }
        // Nothing asked for: ignored, in every other phase.
        for phase in [Phase.empty, .loaded, .loadedNothing, .shown] { expect(phase, .markerPostFetched(newer)) }
    }

    @Test("the marker's post failing leaves the saved list; homeShown, lateHomeTaken and notificationsSaved in every phase")
    func otherEvents() {
        for phase in Phase.allCases {
            expect(phase, .markerPostFailed) { $0.wantedPost = nil }
            expect(phase, .homeShown) { $0.homeShown = true }
            expect(phase, .lateHomeTaken) { $0.lateHome = nil }
            expect(phase, .notificationsSaved(ReadingPosition(id: "n7", createdAt: .distantPast))) {
                $0.savedNotifications = ReadingPosition(id: "n7", createdAt: .distantPast)
            }
        }
    }

    @Test("a notifications list reaching a position: kept only when further on, in every phase")
    func notificationsReached() {
        let further = ReadingPosition(id: "8", createdAt: .distantPast)
        for phase in Phase.allCases {
            expect(phase, .notificationsReached(further)) { $0.notifications = further }
        }
        var state = Self.state(.loaded)
        state.reduce(.notificationsReached(further), isNewer: Self.byNumber)
        state.reduce(.notificationsReached(ReadingPosition(id: "7", createdAt: .distantPast)), isNewer: Self.byNumber)
        #expect(state.notifications == further, "never back")
    }
}
