// The decoded form every screenshot format is brought to before it is encoded as PNG, and the limits
// that keep a hostile header from making the server allocate gigabytes.
import { BadRequestError, PayloadTooLargeError } from '../../../kernel/sdk/index.ts';

/** Straight RGBA, 8 bits a channel, rows top to bottom: what pngjs encodes. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Buffer;
}

/**
 * The largest phone displays are 1280x800 (video phones). 16 Mi pixels (64 MiB of RGBA) leave room
 * for any real screen while bounding what a forged width and height can cost; the side limit keeps
 * row arithmetic small even for a very thin picture.
 */
export const IMAGE_LIMITS = { maxSide: 8192, maxPixels: 4096 * 4096 } as const;

/**
 * Checks dimensions read from an image header before anything is allocated for them: zero,
 * negative or fractional sizes are malformed; sizes over the limits are refused as too large.
 */
export function checkDimensions(width: number, height: number, what: string): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    throw new BadRequestError(`the ${what} declares an invalid size ${width}x${height}`);
  if (width > IMAGE_LIMITS.maxSide || height > IMAGE_LIMITS.maxSide)
    throw new PayloadTooLargeError(
      `the ${what} declares ${width}x${height} pixels, over the limit of ${IMAGE_LIMITS.maxSide} a side`,
    );
  if (width * height > IMAGE_LIMITS.maxPixels)
    throw new PayloadTooLargeError(
      `the ${what} declares ${width}x${height} pixels, over the limit of ${IMAGE_LIMITS.maxPixels} pixels`,
    );
}

/** An opaque black raster of checked dimensions. */
export function allocRaster(width: number, height: number, what: string): RgbaImage {
  checkDimensions(width, height, what);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { width, height, data };
}
