/// The sandbox's identities (``SandboxScenario/Identity``), for a front's `account NAME`: the
/// directory's own, named by its signed-in account's handle, and the others its scenario lists.
extension SandboxService {
    /// The other identities, as the scenario lists them.
    @_spi(FeedService) public var identities: [SandboxScenario.Identity] {
        withState { $0.scenario.identities }
    }

    /// The signed-in account's handle (`you`): the name of the sandbox's own identity.
    @_spi(FeedService) public var signedInHandle: String {
        withState { $0.scenario.account.acct }
    }
}
