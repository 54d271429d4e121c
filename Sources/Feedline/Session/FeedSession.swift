/// Everything a front needs, wired once: the service, the shared post store, the timeline, the
/// navigator, and the activity every effect is counted in.
///
/// Fronts (the REPL, the JSON-lines driver, an app) make one session, render
/// `navigator.top`, turn input into view-model calls, and — when they run scripts — call
/// ``settle()`` before reading the next command.
@MainActor
public final class FeedSession {
    public let service: any FeedService
    public let clock: WallClock
    public let activity: Activity
    public let store: PostStore
    public let timeline: TimelineViewModel
    public let navigator: Navigator

    /// A session on `service`; relative times come from `clock`; rows within `prefetchDistance`
    /// of the end load the next page. Effects run their nonisolated work (service calls) on
    /// `executor` when one is given (see ``MainQueueTaskExecutor``), else on the global pool.
    public init(
        service: any FeedService, clock: WallClock = .system, prefetchDistance: Int = 5,
        executor: (any TaskExecutor)? = nil
    ) {
        let activity = Activity(executor: executor)
        let store = PostStore(service: service, activity: activity)
        let timeline = TimelineViewModel(
            service: service, store: store, activity: activity, clock: clock, prefetchDistance: prefetchDistance
        )
        self.service = service
        self.clock = clock
        self.activity = activity
        self.store = store
        self.timeline = timeline
        navigator = Navigator(timeline: timeline) { id in
            PostDetailViewModel(id: id, service: service, store: store, activity: activity, clock: clock)
        }
    }

    /// Returns once no page load, detail load or interaction request is running (at once when
    /// none is). Effects started meanwhile are waited for too.
    public func settle() async {
        await activity.idle()
    }
}
