/**
 * An abort signal that fires after `ms` without `touch()`. Built on setTimeout (not AbortSignal.timeout)
 * so a test's fake clock can move it.
 */
export function idleDeadline(ms: number) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new DOMException(`No answer for ${ms} ms`, 'TimeoutError')), ms);
  };
  touch();
  return { signal: controller.signal, touch, stop: () => clearTimeout(timer) };
}
