import { uploadTempDir, withUploadForm, type FormReadError, type UploadForm } from '../../http/forms.ts';
import { categoryUploadMessages } from '../admin-images.ts';

/**
 * Reads an admin category form (its fields and at most one image) under the category image
 * limits, as adding and editing a category both do; `refused` answers a form that could not be read.
 */
export function withCategoryForm<Answer>(
  request: Request,
  dataDir: string,
  handle: (upload: UploadForm) => Promise<Answer>,
  refused: (error: FormReadError) => Answer,
): Promise<Answer> {
  return withUploadForm(request, { tempDir: uploadTempDir(dataDir), messages: categoryUploadMessages }, handle, refused);
}
