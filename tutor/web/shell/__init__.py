"""The frame every page shares: home, learn and offline pages, the settings, the web
manifest and service worker, the error pages and the template context."""
