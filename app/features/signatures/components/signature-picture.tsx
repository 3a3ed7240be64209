import { useEffect, useState, type ReactNode } from "react";
import { readCsrfToken } from "~/lib/csrf-token";

/** Longest sides of the picture sent: enough for a sharp signature on a printed page. */
const MAX_WIDTH = 900;
const MAX_HEIGHT = 300;
/** Above this brightness a pixel is paper and becomes transparent; below `INK_BELOW`, ink. */
const PAPER_ABOVE = 205;
const INK_BELOW = 140;

/**
 * A photo or scan of a signature made ready for the page (issue 38): turned upright, shrunk to at
 * most 900 × 300 and saved as PNG with the paper made transparent, so it sits on the document
 * like ink rather than as a white box. The server checks the result again.
 */
async function preparePicture(file: File): Promise<Blob> {
  if (!/^image\/(png|jpeg)$/.test(file.type)) throw new Error("Use a PNG or JPEG picture of your signature.");
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error("This picture could not be opened. Save it again as PNG or JPEG and try once more.");
  }
  const scale = Math.min(1, MAX_WIDTH / bitmap.width, MAX_HEIGHT / bitmap.height);
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("Your browser cannot prepare pictures here: draw or type your signature instead.");
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  const pixels = image.data;
  for (let index = 0; index < pixels.length; index += 4) {
    const brightness = 0.299 * pixels[index]! + 0.587 * pixels[index + 1]! + 0.114 * pixels[index + 2]!;
    if (brightness >= PAPER_ABOVE) pixels[index + 3] = 0;
    else if (brightness > INK_BELOW) pixels[index + 3] = Math.round((pixels[index + 3]! * (PAPER_ABOVE - brightness)) / (PAPER_ABOVE - INK_BELOW));
  }
  context.putImageData(image, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("This picture could not be prepared: draw or type your signature instead.");
  return blob;
}

async function upload(token: string, picture: Blob): Promise<{ value: string } | { message: string }> {
  try {
    const response = await fetch(`/api/sign/${token}/signature-image`, { method: "POST", headers: { "Content-Type": "image/png", Accept: "application/json", "X-CSRF-TOKEN": readCsrfToken() }, body: picture, credentials: "same-origin" });
    const json = (await response.json().catch(() => ({}))) as { value?: string; message?: string };
    return response.ok && json.value ? { value: json.value } : { message: json.message ?? "The picture could not be uploaded. Please try again." };
  } catch {
    return { message: "The picture could not be uploaded. Check your connection and try again." };
  }
}

/**
 * Signing with a picture of one's handwritten signature, as an alternative to the pad: once one
 * is uploaded it replaces the pad (its value goes in `_image_<field>`), and "Draw or type instead"
 * brings the pad back.
 */
export function SignaturePicture({ token, fieldId, label, pad }: { token: string; fieldId: string; label: string; pad: ReactNode }) {
  const [picture, setPicture] = useState<{ value: string; preview: string } | null>(null);
  const [status, setStatus] = useState<string>("");
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => (picture ? URL.revokeObjectURL(picture.preview) : undefined), [picture]);

  if (picture) {
    return (
      <div className="space-y-2">
        <img src={picture.preview} alt={`Your uploaded signature for ${label}`} className="block max-h-28 max-w-full rounded-md border border-slate-300 bg-white p-2" />
        <input type="hidden" name={`_image_${fieldId}`} value={picture.value} />
        <button type="button" className="text-sm font-medium text-brand-700 underline" onClick={() => setPicture(null)}>
          Draw or type instead
        </button>
      </div>
    );
  }
  return (
    <div className="space-y-2">
      {pad}
      <label className="block text-sm text-slate-900">
        Or upload a picture of your signature (PNG or JPEG)
        <input
          type="file"
          accept="image/png,image/jpeg"
          className="mt-1 block w-full max-w-md text-sm"
          onChange={async (event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (!file) return;
            setProblem(null);
            setStatus("Uploading your picture…");
            try {
              const prepared = await preparePicture(file);
              const result = await upload(token, prepared);
              if ("value" in result) {
                setPicture({ value: result.value, preview: URL.createObjectURL(prepared) });
                setStatus("Your picture is ready: it is what will be signed with.");
              } else {
                setProblem(result.message);
                setStatus("");
              }
            } catch (error) {
              setProblem(error instanceof Error ? error.message : "This picture could not be used.");
              setStatus("");
            }
          }}
        />
      </label>
      <p role="status" className="text-sm text-slate-600">
        {status}
      </p>
      {problem ? <p className="text-sm text-red-800">{problem}</p> : null}
    </div>
  );
}
