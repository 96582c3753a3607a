/// Virtual devices made of several physical cameras (the simulated dual and triple
/// cameras), which switch among them with the zoom.
///
/// Threads: any; a pinned constituent applies from the next frame.
package protocol ConstituentCameras: AnyObject, Sendable {
    /// The unique IDs of the physical cameras, widest first; empty for a physical camera.
    var constituentUniqueIDs: [String] { get }
    /// The zoom factors at which the next constituent takes over.
    var switchOverZoomFactors: [Double] { get }
    /// The constituent that films at `zoom` when switching is free.
    func constituentIndex(forZoom zoom: Double) -> Int
    /// The device zoom factor at which a constituent films at its own zoom 1.
    func baseZoom(ofConstituent index: Int) -> Double
    /// The constituent held whatever the zoom; nil lets the zoom choose.
    var pinnedConstituent: Int? { get set }
}
