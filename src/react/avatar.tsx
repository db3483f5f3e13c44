import { useState } from "react";

/**
 * "Ada Lovelace" -> "AL"; an email or one word gives one letter.
 *
 * @example
 * initials("Ada Lovelace"); // "AL"
 * initials("ada@example.com"); // "A"
 */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 && !name.includes("@") ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => (word ? Array.from(word)[0]!.toUpperCase() : ""))
    .join("")
    .slice(0, 2);
}

/**
 * A picture, or the initials when there is none or it fails to load. Decorative: the owner names it.
 *
 * @example
 * <Avatar name={user.name} image={user.image} size="sm" />
 */
export function Avatar({
  name,
  image,
  size = "md",
}: {
  name: string;
  image?: string | null;
  size?: "sm" | "md" | "lg";
}) {
  const [broken, setBroken] = useState<string | null>(null);
  const showImage = Boolean(image) && broken !== image;
  return (
    <span className={`gh-avatar gh-avatar-${size}`} aria-hidden="true" data-testid="gh-avatar">
      {showImage ? (
        <img src={image!} alt="" onError={() => setBroken(image!)} referrerPolicy="no-referrer" />
      ) : (
        initials(name || "?")
      )}
    </span>
  );
}
