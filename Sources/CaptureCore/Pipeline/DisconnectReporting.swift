/// Devices that notice their own disconnection: a node that vanished, a driver's ENODEV
/// mid-stream, a simulated unplug. The registry sets the handler when it makes the device
/// and answers with `wasDisconnectedNotification`; a provider that learns of removals in
/// batches reports them through `DeviceChange.removed` instead.
package protocol DisconnectReporting: AnyObject, Sendable {
    /// Sets what runs, once, when the device goes away, on whichever thread noticed it,
    /// after a running stream was told (`backendDidFail(.deviceWasDisconnected)`).
    func onDisconnect(_ handler: @escaping @Sendable () -> Void)
}
