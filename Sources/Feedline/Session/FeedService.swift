/// Everything a session asks of a server: one narrow protocol per feature, declared in the
/// feature's folder, composed here. Implementations: the offline sandbox and the HTTP client in
/// `FeedlineMastodon`, and test doubles. A new feature adds its protocol to this list; the
/// protocols have no default implementations, so a service that cannot do something says so
/// itself, in its own words.
///
/// Calls may run concurrently and must be safe to call from any task. A call that is cancelled
/// should stop early (throwing `CancellationError` is fine); its result is ignored. Errors should
/// conform to `FeedServiceError` (or at least `LocalizedError`) with a sentence a user can act
/// on: the view models show it as is (see ``FeedFailure``).
@_spi(FeedService) public typealias FeedService = TimelineService & InteractionService & WritingService & RelationshipService
    & DomainBlockService & TagService & UserListService & ConversationService & FilterService & TranslationService & ReportService
    & AnnouncementService
    & ScheduledService & NotificationPolicyService & NotificationRequestService & ProfileService
