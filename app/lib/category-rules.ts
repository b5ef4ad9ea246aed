/** Category rules and messages (SPEC 5 and 8), shared by the pages and the server. */

export const MAX_CATEGORY_NAME = 60;

export const categoryMessages = {
  nameRequired: 'Category name is required',
  added: 'Category added successfully!',
  addFailed: 'Failed to add category. Please try again.',
  updated: 'Category updated successfully',
  updateFailed: 'Failed to update category',
  deleted: 'Category deleted successfully',
  deleteFailed: 'Failed to delete category',
  loadFailed: 'Failed to load categories',
  confirmDelete: 'Are you sure you want to delete this category? This action cannot be undone.',
  notFound: 'Category not found',
} as const;
