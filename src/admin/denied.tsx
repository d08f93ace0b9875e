import { DENIED_MESSAGE, type OnDenied } from '../auth/policy';
import { isHtmx } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { AccessDenied } from './views/ApprovalPage';

/** A refusal on an admin page is the Access Denied card under the page's title (a toast for htmx requests). */
export const accessDenied =
  (page: { title: string; subtitle?: string }): OnDenied =>
  (c, status) => {
    c.status(status);
    if (isHtmx(c)) {
      triggerToast(c, 'Access Denied', DENIED_MESSAGE, 'error');
      return c.body(null);
    }
    return c.render(<AccessDenied />, page);
  };
