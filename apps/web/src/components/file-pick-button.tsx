import { useRef, type ComponentProps } from 'react';
import { Button } from '@/components/ui/button';

/**
 * A button that opens the file picker (a hidden file input) and hands over the one file chosen. The
 * input is emptied at once, so picking the same file again is a new pick.
 */
export function FilePickButton({
  accept,
  onFile,
  inputTestId,
  ...button
}: Omit<ComponentProps<typeof Button>, 'onClick'> & {
  accept: string;
  onFile: (file: File) => void;
  inputTestId: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
        data-testid={inputTestId}
      />
      <Button {...button} onClick={() => input.current?.click()} />
    </>
  );
}
