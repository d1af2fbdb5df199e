import CGStreamer
import RLBarcode

// Outlines and labels drawn into the frame (`draw`, `draw-labels`).
extension RLBarcodeElement {
    /// Draws outlines (and labels) of the frame's codes.
    func draw(_ codes: [PendingCode], on canvas: FrameCanvas, settings s: Settings) {
        let outline = YUVColor(argb: s.outlineColor)
        let unwantedColor = YUVColor(argb: s.unwantedColor)
        let shortSide = min(canvas.width, canvas.height)
        let thickness = shortSide >= 480 ? 3 : 2
        let scale = shortSide >= 720 ? 2 : 1
        for code in codes {
            let color = code.unwanted ? unwantedColor : outline
            let c = code.result.corners
            canvas.polygon(c, thickness: thickness, color)
            if code.unwanted && c.count == 4 {
                canvas.line(c[0].x, c[0].y, c[2].x, c[2].y, thickness: thickness, color)
                canvas.line(c[1].x, c[1].y, c[3].x, c[3].y, thickness: thickness, color)
            }
            guard s.drawLabels, !code.disabled, let box = code.box else { continue }
            var label = code.result.text
            if !code.result.addOn.isEmpty { label += " " + code.result.addOn }
            let maxChars = max(1, (canvas.width / scale - 1) / BitmapFont.advance)
            let shown = label.utf8.prefix(maxChars)
            let size = FrameCanvas.textSize(byteCount: shown.count, scale: scale)
            var y = box.y - size.height - thickness
            if y < 0 { y = box.y + box.height + thickness }
            let x = max(0, min(box.x, canvas.width - size.width))
            canvas.text(shown, x: x, y: y, scale: scale, color: color, background: .black)
        }
    }
}
