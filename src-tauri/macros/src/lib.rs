//! `#[page_args]`: put on a shell command (beside `#[tauri::command]`), it
//! leaves the function as it is and adds a module of the same name holding
//! `ARGS`, the names of the arguments the page passes, in order: every
//! parameter but those Tauri hands the command itself (the app, the
//! window, managed state, the raw request). `src-tauri/src/lib.rs`'s
//! `shell_commands!` table takes the names from there, so they are written
//! once, in the function's signature, and the generated TypeScript cannot
//! drift from what Tauri reads.
//!
//! A function and a module live in different namespaces: `chat_page` the
//! command and `chat_page::ARGS` its names sit side by side.

use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, FnArg, ItemFn, Pat, Type};

/// The types Tauri injects into a command (by their last path segment):
/// the page never passes them.
const INJECTED: &[&str] = &["AppHandle", "WebviewWindow", "Window", "State", "Request"];

/// Whether `ty` is one Tauri injects.
fn injected(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => injected(&r.elem),
        Type::Path(p) => p.path.segments.last().is_some_and(|s| INJECTED.contains(&s.ident.to_string().as_str())),
        _ => false,
    }
}

/// Record the page's argument names of the command it is put on, as
/// `<name>::ARGS` (see the crate's documentation).
#[proc_macro_attribute]
pub fn page_args(attr: TokenStream, item: TokenStream) -> TokenStream {
    if !attr.is_empty() {
        let attr = proc_macro2::TokenStream::from(attr);
        return syn::Error::new_spanned(attr, "#[page_args] takes no arguments").to_compile_error().into();
    }
    let func = parse_macro_input!(item as ItemFn);
    let mut names = Vec::new();
    for input in &func.sig.inputs {
        let FnArg::Typed(arg) = input else {
            return syn::Error::new_spanned(input, "a shell command takes no self").to_compile_error().into();
        };
        if injected(&arg.ty) {
            continue;
        }
        let Pat::Ident(ident) = &*arg.pat else {
            return syn::Error::new_spanned(&arg.pat, "a command's argument is a plain name (the page passes it by that name)").to_compile_error().into();
        };
        names.push(ident.ident.to_string().trim_start_matches("r#").to_string());
    }
    let (vis, name) = (&func.vis, &func.sig.ident);
    let doc = format!("The arguments the page passes to [`{name}()`], by name, in order.");
    quote! {
        #func
        #[doc = #doc]
        #vis mod #name {
            /// The names, as the function's signature has them.
            pub(crate) const ARGS: &[&str] = &[#(#names),*];
        }
    }
    .into()
}
