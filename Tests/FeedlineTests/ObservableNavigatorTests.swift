@_spi(FeedService) import Feedline
import FeedlineObservation
import FeedlineTestSupport
import Observation
import Testing

/// `ObservableNavigator`, as `NavigationStack(path:)` would drive it: the navigator's pushes and
/// pops change the path once each, the path's setter drives the navigator, and nothing a screen
/// does on its own touches the path.
@MainActor
@Suite("Observable navigator", .timeLimit(.minutes(10)))
struct ObservableNavigatorTests {
    private func loadedSession() async -> FeedSession {
        let session = FeedSession(service: GatedServer(posts: makePosts(12), answering: [.page, .notifications, .post, .context, .interaction]), clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        return session
    }

    @Test("push, pop and popToRoot on the navigator each invalidate the path exactly once; entries that stay keep their identity")
    func navigatorDrivesPath() async {
        let session = await loadedSession()
        let navigator = session.navigator
        let face = ObservableNavigator(navigator)
        #expect(face.path.isEmpty)
        let path = Invalidations { _ = face.path }

        navigator.open("p1")
        #expect(path.value == 1)
        #expect(face.path.map(\.route) == [.post("p1")])
        let first = face.path[0]

        navigator.push(.list(.thread("p2")))
        #expect(path.value == 2)
        #expect(face.path.map(\.route) == [.post("p1"), .list(.thread("p2"))])
        #expect(face.path[0] == first)

        navigator.push(.post("p1"))
        #expect(path.value == 3)
        #expect(face.path.map(\.route) == [.post("p1"), .list(.thread("p2")), .post("p1")])
        #expect(face.path[2] != first, "the same route pushed twice is two entries")

        #expect(navigator.pop())
        #expect(path.value == 4)
        #expect(face.path.map(\.route) == [.post("p1"), .list(.thread("p2"))])

        navigator.popToRoot()
        #expect(path.value == 5)
        #expect(face.path.isEmpty)

        #expect(!navigator.pop())
        navigator.popToRoot()
        #expect(path.value == 5, "nothing to pop: no change")
    }

    @Test("a change on one screen invalidates that screen's face, never the path or the root")
    func screenChangesLeaveThePath() async throws {
        let session = FeedSession(service: GatedServer(posts: makePosts(30), pageSize: 10, answering: [.page, .post, .context, .interaction]), clock: .fixed(testNow))
        session.root.appeared()
        await session.settle()
        let face = ObservableNavigator(session.navigator)
        session.navigator.open("p3")
        await session.settle()
        let entry = try #require(face.path.first)
        guard case .post(let detail) = face.destination(for: entry) else {
            Issue.record("the entry of a post route stands for a post screen")
            return
        }
        let path = Invalidations { _ = face.path }
        let root = Invalidations { _ = face.root }
        let detailState = Invalidations { _ = detail.state }
        let rootRows = Invalidations { _ = face.root.rows }

        #expect(detail.toggle(.favourite))
        session.root.loadMore()
        await session.settle()
        #expect(detailState.value >= 1, "the detail's face saw the favourite")
        #expect(rootRows.value >= 1, "the root's face saw the page")
        #expect(face.root.rows.count == 20)
        #expect(path.value == 0)
        #expect(root.value == 0)
    }

    @Test("setting the path without its last entry pops the navigator, once; setting it empty pops to the root")
    func settingThePathPops() async throws {
        let session = await loadedSession()
        let navigator = session.navigator
        let face = ObservableNavigator(navigator)
        navigator.open("p1")
        navigator.push(.list(.thread("p1")))
        navigator.open("p2")
        await session.settle()
        weak let popped = navigator.top.detail
        #expect(popped != nil)
        let kept = Array(face.path.prefix(2))
        let path = Invalidations { _ = face.path }

        face.path.removeLast()  // the back button
        #expect(navigator.depth == 3)
        #expect(navigator.top.route == .list(.thread("p1")))
        #expect(face.path == kept)
        #expect(path.value == 1)
        #expect(popped == nil, "the popped screen is released with the navigator's last reference")

        face.path = []
        #expect(navigator.depth == 1)
        #expect(face.path.isEmpty)
        #expect(path.value == 2)
    }

    @Test("appending an entry pushes its route; the entry stays as appended and stands for the new screen")
    func appendingPushes() async throws {
        let session = await loadedSession()
        let navigator = session.navigator
        let face = ObservableNavigator(navigator)
        let path = Invalidations { _ = face.path }
        let post = ObservableNavigator.Entry(.post("p3"))
        let thread = ObservableNavigator.Entry(.list(.thread("p3")))

        face.path.append(post)
        #expect(path.value == 1)
        #expect(face.path == [post])
        #expect(navigator.top.route == .post("p3"))

        face.path += [thread, ObservableNavigator.Entry(.list(.notifications))]
        #expect(path.value == 2, "two entries appended at once are one change")
        #expect(navigator.screens.map(\.route) == [.list(.feed(.home)), .post("p3"), .list(.thread("p3")), .list(.notifications)])
        #expect(face.path.prefix(2) == [post, thread])

        guard case .post(let detail) = face.destination(for: post), case .list(let list) = face.destination(for: thread) else {
            Issue.record("each entry stands for its screen's face")
            return
        }
        #expect(detail.viewModel === navigator.screens[1].detail)
        #expect(list.viewModel === navigator.screens[2].list)
        if case .post(let again) = face.destination(for: post) { #expect(again === detail, "one face per screen") }

        // Replacing the top entry with another pops one screen and pushes one: still one change.
        face.path[2] = ObservableNavigator.Entry(.post("p4"))
        #expect(path.value == 3)
        #expect(navigator.screens.map(\.route) == [.list(.feed(.home)), .post("p3"), .list(.thread("p3")), .post("p4")])
        #expect(navigator.screens[2].list === list.viewModel, "the screens below stay")

        navigator.pop()
        #expect(face.destination(for: face.path[0]) != nil)
        face.path = []
        #expect(face.destination(for: post) == nil, "an entry off the path stands for nothing")
    }

    @Test("a new root replaces the root's face and clears the path, one change each")
    func replacingTheRoot() async {
        let session = await loadedSession()
        let navigator = session.navigator
        let face = ObservableNavigator(navigator)
        navigator.open("p1")
        let oldRoot = face.root
        let path = Invalidations { _ = face.path }
        let root = Invalidations { _ = face.root }

        navigator.replaceRoot(.local)
        #expect(path.value == 1)
        #expect(root.value == 1)
        #expect(face.path.isEmpty)
        #expect(face.root !== oldRoot)
        #expect(face.root.viewModel === navigator.root)
    }
}
