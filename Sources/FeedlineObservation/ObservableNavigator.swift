import Feedline
import Observation
import Synchronization

/// A ``Navigator`` as an `@Observable` object, for SwiftUI's `NavigationStack(path:)`: bind
/// ``path`` (the screens above the root, as ``Entry`` values), show ``root`` at the bottom, and
/// ask ``destination(for:)`` for the observable face of the screen an entry stands for.
///
/// One stack, driven from either side, on the main actor:
/// - **Navigator to path.** Every `push`, `pop`, `popToRoot` and `replaceRoot` of the navigator,
///   whoever calls it, changes ``path`` once — one invalidation of its observers — before the
///   call returns. Entries of screens that stay keep their identity.
/// - **Path to navigator.** Setting ``path`` (the back button removes the last entry, a
///   programmatic `append` adds one) pops the navigator down to the entries the old and new
///   paths share, then pushes the routes of the new entries in order — also one invalidation, and
///   afterwards ``path`` is exactly the value set.
///
/// Changes within a screen (a page loaded, a favourite) never invalidate ``path`` or ``root``:
/// only that screen's face. The object holds the screens on its path (and the faces it handed
/// out) only while they are on the navigator's stack; a popped screen is released as the
/// navigator releases it, unless a view still holds its face.
@MainActor
@Observable
public final class ObservableNavigator {
    /// One screen above the root: its route and an identity of its own, so a route pushed twice
    /// (the same post opened from its own thread) is two entries with two screens.
    public struct Entry: Hashable, Sendable, Identifiable {
        /// What the screen shows.
        public let route: Route
        /// Unique among the entries made in this process.
        public let id: Int

        private static let lastID = Atomic<Int>(0)

        /// A new entry for `route`, distinct from every other: append it to ``ObservableNavigator/path``
        /// to push the route.
        public init(_ route: Route) {
            self.route = route
            id = Self.lastID.wrappingAdd(1, ordering: .relaxed).newValue
        }
    }

    /// The observable face of a screen, for an entry's destination view.
    public enum Destination: Sendable {
        /// A list screen: a feed, a thread or the notifications.
        case list(ObservableFeedList)
        /// A post's detail.
        case post(ObservablePostDetail)
    }

    /// The navigator it follows and drives (pushing on it directly is fine: ``path`` follows).
    @ObservationIgnored public let navigator: Navigator

    /// The face of the list at the bottom of the stack; replaced when the navigator's root is
    /// (`replaceRoot`), and only then.
    public private(set) var root: ObservableFeedList

    /// The screens above the root, bottom first, as a `NavigationStack(path:)` binds them.
    ///
    /// Setting it drives the navigator (see the type's description); observers are invalidated
    /// once per change, whichever side made it.
    /// - Complexity: Reading is O(1); setting is O(n) plus the navigator's pops and pushes, for
    ///   n entries on the old and new paths.
    public var path: [Entry] {
        get {
            access(keyPath: \.path)
            return entries
        }
        set { navigate(to: newValue) }
    }

    /// What ``path`` returns.
    @ObservationIgnored private var entries: [Entry] = []
    /// The screens above the root with their entries (and faces, once asked for), in step with
    /// the navigator's stack after every ``sync()``.
    @ObservationIgnored private var slots: [Slot] = []
    /// Entries set in ``path`` whose screens the navigator is being asked to push, in order.
    @ObservationIgnored private var appended: [Entry] = []
    /// Whether ``path``'s setter is driving the navigator (its publications wait for one sync).
    @ObservationIgnored private var navigating = false
    @ObservationIgnored private var subscription: Subscription?

    private struct Slot {
        let entry: Entry
        /// Held while the navigator holds it, so its identity is never reused meanwhile.
        let screen: Screen
        var face: Destination?
    }

    /// An observable face of `navigator`, following it for as long as the face lives.
    public init(_ navigator: Navigator) {
        self.navigator = navigator
        root = ObservableFeedList(navigator.root)
        subscription = navigator.routes.observe { [weak self] _ in
            guard let self, !self.navigating else { return }
            self.sync()
        }
    }

    /// The face of the screen `entry` stands for — the same object on every call while the entry
    /// is on ``path`` — or `nil` when it is not on it.
    /// - Complexity: O(n) for n entries on ``path``.
    public func destination(for entry: Entry) -> Destination? {
        guard let index = slots.firstIndex(where: { $0.entry == entry }) else { return nil }
        if let face = slots[index].face { return face }
        let face: Destination = switch slots[index].screen {
        case .list(let list): .list(ObservableFeedList(list))
        case .post(let detail): .post(ObservablePostDetail(detail))
        }
        slots[index].face = face
        return face
    }

    /// Pops the navigator to the entries `newPath` shares with the current path, then pushes
    /// the routes of the rest, and publishes the result once.
    private func navigate(to newPath: [Entry]) {
        sync()  // a no-op unless the navigator's publication is still queued behind another one
        guard newPath != entries else { return }
        let kept = zip(entries, newPath).prefix { $0 == $1 }.count
        navigating = true
        if kept == 0 {
            navigator.popToRoot()
        } else {
            for _ in kept..<entries.count { navigator.pop() }
        }
        appended = Array(newPath[kept...])
        for entry in appended { navigator.push(entry.route) }
        navigating = false
        sync()
    }

    /// Brings ``root``, the slots and ``path`` in step with the navigator's stack: screens that
    /// stayed keep their entries and faces; a new screen takes the next entry set in ``path``, or
    /// a new one. Changes ``path`` and ``root`` only when they differ.
    private func sync() {
        if navigator.root !== root.viewModel { root = ObservableFeedList(navigator.root) }
        var previous: [ObjectIdentifier: Slot] = [:]
        for slot in slots { previous[slot.screen.identity] = slot }
        var next = appended.startIndex
        slots = navigator.screens.dropFirst().map { screen in
            if let slot = previous[screen.identity] { return slot }
            guard next < appended.endIndex, appended[next].route == screen.route else {
                return Slot(entry: Entry(screen.route), screen: screen, face: nil)
            }
            next += 1
            return Slot(entry: appended[next - 1], screen: screen, face: nil)
        }
        appended = []
        let path = slots.map(\.entry)
        if path != entries {
            withMutation(keyPath: \.path) { entries = path }
        }
    }
}

extension Screen {
    /// The identity of the screen's view model.
    fileprivate var identity: ObjectIdentifier {
        switch self {
        case .list(let list): ObjectIdentifier(list)
        case .post(let detail): ObjectIdentifier(detail)
        }
    }
}
